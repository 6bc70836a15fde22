// POST /submessage: adds a submessage (a poll vote, a checked task) to a message's widget.
import { checkAddSubmessage } from '../../lib/actions/messages/submessages';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({
    message_id: json(int),
    msg_type: rawString(),
    content: rawString(),
  });
  await checkAddSubmessage(user, { messageId: p.message_id, msgType: p.msg_type, content: p.content });
});
