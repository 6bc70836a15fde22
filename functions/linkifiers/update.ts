// PATCH /realm/filters/{filter_id}
import { checkUpdateLinkifier } from '../../lib/actions/organization/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const updateLinkifier = checkUpdateLinkifier.authorize(user);
  const filterId = pathInt('filter_id');
  const { pattern, url_template } = params({ pattern: rawString(), url_template: rawString() });
  await updateLinkifier(filterId, pattern, url_template);
});
