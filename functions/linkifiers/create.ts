// POST /realm/filters
import { checkAddLinkifier } from '../../lib/actions/organization/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const addLinkifier = checkAddLinkifier.authorize(user);
  const { pattern, url_template } = params({ pattern: rawString(), url_template: rawString() });
  return { id: await addLinkifier(pattern, url_template) };
});
