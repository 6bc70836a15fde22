// DELETE /realm/filters/{filter_id}
import { requireRealmAdmin } from '../../lib/access/roles';
import { checkRemoveLinkifier } from '../../lib/actions/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  requireRealmAdmin(user);
  await checkRemoveLinkifier(user, pathInt('filter_id'));
});
