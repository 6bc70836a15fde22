// GET /users/me: the caller's own user object (avatar URL and profile data always included).
import { maxMessageIdOfUser } from '../../lib/actions/people/lookup';
import { apiHandler } from '../../lib/http/api-handler';
import { userObject, userReadContext } from '../../lib/state/realm-user';

export const handler = apiHandler(async ({ realm, user }) => {
  const [own, maxMessageId] = await Promise.all([
    userObject(userReadContext(realm, user), user, { clientGravatar: false, includeProfileData: true }),
    maxMessageIdOfUser(user),
  ]);
  return { ...own, max_message_id: maxMessageId };
});
