// DELETE /drafts/{draft_id}: deletes one of the caller's drafts.
import { doDeleteDraft, requireDraftsSynchronization } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  requireDraftsSynchronization(user);
  await doDeleteDraft(user, pathInt('draft_id'));
});
