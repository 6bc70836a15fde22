// POST /streams/{stream_id}/delete_topic: delete a topic's messages, a bounded batch per request.
import { checkDeleteTopic } from '../../lib/actions/channels/delete-topic';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  // Upstream's require_realm_admin runs before the parameters are read.
  const deleteTopic = checkDeleteTopic.authorize(user);
  const channelId = pathInt('stream_id');
  const { topic_name } = params({ topic_name: rawString() });
  return deleteTopic(channelId, topic_name);
});
