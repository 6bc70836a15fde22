// GET /users/{user_id_or_email}/presence: one user's presence in the legacy format (bots may call it).
import { accessUserForPresence, getUserPresence } from '../../lib/actions/people/presence';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ realm, pathString }) => {
  const userIdOrEmail = pathString('user_id_or_email');
  const target = await accessUserForPresence(realm, userIdOrEmail);
  return { presence: await getUserPresence(target, userIdOrEmail) };
});
