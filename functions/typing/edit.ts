// POST /messages/{message_id}/typing: start or stop typing in an edit of one's own message.
import { checkSendEditTyping } from '../../lib/actions/typing';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { literal } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const messageId = pathInt('message_id');
  const { op } = params({ op: rawString(literal('start', 'stop')) });
  await checkSendEditTyping(realm, user, messageId, op);
  return {};
});
