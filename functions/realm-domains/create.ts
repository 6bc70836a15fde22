// POST /realm/domains
import { checkAddRealmDomain } from '../../lib/actions/organization/domains';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const addDomain = checkAddRealmDomain.authorize(user);
  const { domain, allow_subdomains } = params({ domain: rawString(), allow_subdomains: json(bool) });
  return { new_domain: await addDomain(domain, allow_subdomains) };
});
