// POST /users/me/muted_users/{muted_user_id}: mute a user.
import { checkMuteUser } from '../../lib/actions/people/muted-users';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ realm, user, pathInt }) => {
  await checkMuteUser(realm, user, pathInt('muted_user_id'));
  return {};
});
