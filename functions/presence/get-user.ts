// GET /users/{user_id_or_email}/presence: one user's presence in the legacy format (bots may call it).
import { getUserPresence } from '../../lib/actions/people/presence';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ realm, pathString }) => ({
  presence: await getUserPresence(realm, pathString('user_id_or_email')),
}));
