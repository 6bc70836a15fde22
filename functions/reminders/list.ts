// GET /reminders
import { listReminders } from '../../lib/actions/reminders';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiReminder } from '../../lib/models/scheduled-message';
import { renderPlainMarkdown } from '../../lib/render';

export const handler = apiHandler(async ({ user }) => ({
  reminders: (await listReminders(user)).map((r) => toApiReminder(r, renderPlainMarkdown)),
}));
