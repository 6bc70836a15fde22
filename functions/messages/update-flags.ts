// POST /messages/flags: add or remove a personal flag on listed messages.
import { checkFlagChange, updateMessageFlags } from '../../lib/actions/messages/flags';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  // Declaration order is upstream's validation order.
  const p = params({ flag: rawString(), messages: json(list(int)), op: rawString() });
  const op = checkFlagChange(p.flag, p.op);
  const result = await updateMessageFlags(user, p.messages, p.flag, op);
  return { messages: p.messages, ignored_because_not_subscribed_channels: result.ignoredChannels };
});
