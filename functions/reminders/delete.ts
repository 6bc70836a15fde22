// DELETE /reminders/{reminder_id}
import { doDeleteReminder } from '../../lib/actions/reminders';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doDeleteReminder(user, pathInt('reminder_id'));
});
