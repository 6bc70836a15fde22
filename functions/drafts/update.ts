// PATCH /drafts/{draft_id}: replaces one of the caller's drafts.
import { checkEditDraft, draftData, readOwnDraft } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const readDraft = readOwnDraft.authorize(user);
  const draftId = pathInt('draft_id');
  const { draft } = params({ draft: json(draftData) });
  const existing = await readDraft(draftId);
  await checkEditDraft(user, realm, existing, draft);
});
