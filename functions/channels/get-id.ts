// GET /get_stream_id: the id of a channel by name.
import { getChannelIdByName } from '../../lib/actions/channels/lookup';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({ stream: rawString() });
  return { stream_id: await getChannelIdByName(user, p.stream) };
});
