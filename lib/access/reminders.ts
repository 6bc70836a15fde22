// Who may see and delete a reminder: its owner only (upstream's access_reminder).
import { ResourceNotFoundError } from '../errors';
import { type ScheduledMessage } from '../models/scheduled-message';
import type { User } from '../models/user';
import * as scheduledStore from '../store/scheduled-messages';

/**
 * Upstream's access_reminder: one of the caller's own scheduled messages that is a reminder.
 * Another user's reminder, a send-later message and an unknown id are all the same 404.
 */
export const accessReminder = async (user: User, reminderId: number): Promise<ScheduledMessage> => {
  const reminder = await scheduledStore.getScheduledMessageOfUser(user.id, reminderId);
  if (!reminder || reminder.kind !== 'reminder' || reminder.senderId !== user.id)
    throw new ResourceNotFoundError('Reminder does not exist');
  return reminder;
};
