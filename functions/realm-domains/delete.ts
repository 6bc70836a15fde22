// DELETE /realm/domains/{domain}
import { checkRemoveRealmDomain } from '../../lib/actions/organization/domains';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathString }) => {
  const removeDomain = checkRemoveRealmDomain.authorize(user);
  await removeDomain(pathString('domain'));
});
