// DELETE /drafts/{draft_id}: deletes one of the caller's drafts.
import { doDeleteDraft } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const deleteDraft = doDeleteDraft.authorize(user);
  await deleteDraft(pathInt('draft_id'));
});
