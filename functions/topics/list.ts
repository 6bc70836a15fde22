// GET /users/me/{stream_id}/topics: the topics of a channel with their newest message ids.
import { getChannelTopics } from '../../lib/actions/channels/topics';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const streamId = pathInt('stream_id');
  const p = params({ allow_empty_topic_name: json(bool).default(false) });
  return { topics: await getChannelTopics(user, realm, streamId, p.allow_empty_topic_name) };
});
