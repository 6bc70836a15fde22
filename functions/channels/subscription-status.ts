// GET /users/{user_id}/subscriptions/{stream_id}
import { isUserSubscribed } from '../../lib/actions/channels/lookup';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => ({
  is_subscribed: await isUserSubscribed(realm, user, pathInt('user_id'), pathInt('stream_id')),
}));
