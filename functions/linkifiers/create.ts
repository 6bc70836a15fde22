// POST /realm/filters
import { requireRealmAdmin } from '../../lib/access/roles';
import { checkAddLinkifier } from '../../lib/actions/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  requireRealmAdmin(user);
  const { pattern, url_template } = params({ pattern: rawString(), url_template: rawString() });
  return { id: await checkAddLinkifier(user, pattern, url_template) };
});
