// GET /drafts: the caller's drafts, least recently edited first.
import { listDrafts, requireDraftsSynchronization } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => {
  requireDraftsSynchronization(user);
  const drafts = await listDrafts(user);
  return { count: drafts.length, drafts };
});
