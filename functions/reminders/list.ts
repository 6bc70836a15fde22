// GET /reminders
import { listReminders } from '../../lib/actions/reminders';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiReminder } from '../../lib/models/scheduled-message';

export const handler = apiHandler(async ({ user }) => ({ reminders: (await listReminders(user)).map(toApiReminder) }));
