// POST /drafts: creates several drafts at once, all or none.
import { checkCreateDrafts, draftData } from '../../lib/actions/drafts';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const createDrafts = checkCreateDrafts.authorize(user);
  // The contract makes `drafts` optional (upstream requires it): no drafts, nothing created.
  const { drafts } = params({ drafts: json(list(draftData)).default([]) });
  const ids = await createDrafts(realm, drafts);
  return { ids };
});
