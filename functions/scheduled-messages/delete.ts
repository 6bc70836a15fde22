// DELETE /scheduled_messages/{scheduled_message_id}
import { doDeleteScheduledMessage } from '../../lib/actions/scheduled-messages';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doDeleteScheduledMessage(user, pathInt('scheduled_message_id'));
});
