// POST /mark_stream_as_read (deprecated upstream for POST /messages/flags/narrow): marks a channel's unread messages read.
import { markChannelAsRead } from '../../lib/actions/messages/flags';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({ stream_id: json(int) });
  await markChannelAsRead(user, p.stream_id);
  return {};
});
