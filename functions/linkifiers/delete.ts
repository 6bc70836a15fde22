// DELETE /realm/filters/{filter_id}
import { checkRemoveLinkifier } from '../../lib/actions/organization/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const removeLinkifier = checkRemoveLinkifier.authorize(user);
  await removeLinkifier(pathInt('filter_id'));
});
