// DELETE /users/me/muted_users/{muted_user_id}: unmute a user.
import { checkUnmuteUser } from '../../lib/actions/people/muted-users';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ realm, user, pathInt }) => {
  await checkUnmuteUser(realm, user, pathInt('muted_user_id'));
  return {};
});
