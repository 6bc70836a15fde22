// GET /drafts: the caller's drafts, least recently edited first.
import { listDrafts } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => {
  const drafts = await listDrafts(user);
  return { count: drafts.length, drafts };
});
