// GET /streams/{stream_id}: one channel whose metadata the caller may see.
import { getChannelForUser } from '../../lib/actions/channels/lookup';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => ({ stream: await getChannelForUser(user, pathInt('stream_id')) }));
