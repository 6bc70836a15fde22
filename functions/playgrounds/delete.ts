// DELETE /realm/playgrounds/{playground_id}
import { checkRemovePlayground } from '../../lib/actions/organization/playgrounds';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const removePlayground = checkRemovePlayground.authorize(user);
  await removePlayground(pathInt('playground_id'));
});
