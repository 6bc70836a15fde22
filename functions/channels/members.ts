// GET /streams/{stream_id}/members: the active subscribers of a channel.
import { getChannelSubscribers } from '../../lib/actions/channels/lookup';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => ({ subscribers: await getChannelSubscribers(user, pathInt('stream_id')) }));
