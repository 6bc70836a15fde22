// POST /typing: start or stop typing in a direct-message conversation or a channel topic.
import { checkSendChannelTyping, checkSendDirectTyping } from '../../lib/actions/typing';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int, list, literal } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  // Declaration order is upstream's validation order.
  const p = params({
    to: json(list(int)).optional(),
    op: rawString(literal('start', 'stop')),
    type: rawString(literal('direct', 'stream', 'channel')).default('direct'),
    stream_id: json(int).optional(),
    topic: rawString().optional(),
  });
  if (p.type === 'direct') await checkSendDirectTyping(user, p.to, p.op);
  else await checkSendChannelTyping(user, p.stream_id, p.topic?.trim(), p.op);
  return {};
});
