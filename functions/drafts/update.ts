// PATCH /drafts/{draft_id}: replaces one of the caller's drafts.
import { accessDraft, checkEditDraft, draftData } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const accessOwnDraft = accessDraft.authorize(user);
  const draftId = pathInt('draft_id');
  const { draft } = params({ draft: json(draftData) });
  const existing = await accessOwnDraft(draftId);
  await checkEditDraft(user, realm, existing, draft);
});
