// DELETE /reminders/{reminder_id}
import { accessReminder, doDeleteReminder } from '../../lib/actions/reminders';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const reminder = await accessReminder(user, pathInt('reminder_id'));
  await doDeleteReminder(user, reminder);
});
