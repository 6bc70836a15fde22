// GET /messages/{message_id}/history: a message's versions, oldest first.
import { getMessageHistory } from '../../lib/actions/messages/history';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const messageId = pathInt('message_id');
  const p = params({ allow_empty_topic_name: json(bool).default(false) });
  return { message_history: await getMessageHistory(realm, user, messageId, p.allow_empty_topic_name) };
});
