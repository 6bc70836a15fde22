// GET /realm/domains
import { listRealmDomains } from '../../lib/actions/organization/domains';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ domains: await listRealmDomains(user) }));
