// DELETE /messages/{message_id}
import { checkDeleteMessage } from '../../lib/actions/messages/delete';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkDeleteMessage(realm, user, pathInt('message_id'));
});
