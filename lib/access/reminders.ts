// Who may see, change and delete a reminder or a send-later message: its owner only (upstream's
// access_reminder and access_scheduled_message).
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

/**
 * Upstream's access_scheduled_message: one of the caller's own send-later messages (delivered
 * ones included). Another user's, a reminder and an unknown id are all the same 404.
 * `consistent` for an edit, which must see a delivery that has just happened.
 */
export const accessScheduledMessage = async (user: User, id: number, opts: { consistent?: boolean } = {}): Promise<ScheduledMessage> => {
  const message = await scheduledStore.getScheduledMessageOfUser(user.id, id, opts);
  if (!message || message.kind !== 'send_later' || message.senderId !== user.id)
    throw new ResourceNotFoundError('Scheduled message does not exist');
  return message;
};
