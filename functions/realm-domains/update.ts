// PATCH /realm/domains/{domain}
import { checkChangeRealmDomain } from '../../lib/actions/organization/domains';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathString }) => {
  const changeDomain = checkChangeRealmDomain.authorize(user);
  const domain = pathString('domain');
  const { allow_subdomains } = params({ allow_subdomains: json(bool) });
  await changeDomain(domain, allow_subdomains);
});
