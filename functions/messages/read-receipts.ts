// GET /messages/{message_id}/read_receipts: the ids of the users who have read a message.
import { listReadReceipts } from '../../lib/actions/messages/read-receipts';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => ({
  user_ids: await listReadReceipts(realm, user, pathInt('message_id')),
}));
