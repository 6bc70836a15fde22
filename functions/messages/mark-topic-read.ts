// POST /mark_topic_as_read (deprecated upstream for POST /messages/flags/narrow): marks a topic's unread messages read.
import { markTopicAsRead } from '../../lib/actions/messages/flags';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  // Declaration order is upstream's validation order.
  const p = params({ stream_id: json(int), topic_name: rawString() });
  await markTopicAsRead(user, p.stream_id, p.topic_name);
  return {};
});
