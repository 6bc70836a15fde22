// GET /users/{user_id}/channels
import { getUserChannelIds } from '../../lib/actions/channels/lookup';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => ({
  subscribed_channel_ids: await getUserChannelIds(realm, user, pathInt('user_id')),
}));
