// Reminders: scheduled messages from a user to themself about a message they can read, with
// upstream's checks in upstream's order (zerver/views/reminders.py, zerver/lib/reminders.py).
import { accessMessage } from '../access/messages';
import { accessReminder } from '../access/reminders';
import { nowSeconds } from '../clock';
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { renderPlainMarkdown } from '../render';
import type { Channel } from '../models/channel';
import type { Message } from '../models/message';
import { charLength, MAX_MESSAGE_LENGTH, stripBody, truncateMessageContent } from '../models/message-content';
import type { Realm } from '../models/realm';
import { pendingReminders, toApiReminder, type ScheduledMessage } from '../models/scheduled-message';
import type { User } from '../models/user';
import { allocateIds } from '../store/common';
import * as scheduledStore from '../store/scheduled-messages';
import { messageLink, unusedFence } from '../render/message-links';
import * as usersStore from '../store/users';
import { deliverySchedule, dropDeliverySchedule } from './scheduled-delivery';

/**
 * DELETE /reminders/{id}: one of the caller's own reminders (accessReminder: anything else is
 * "Reminder does not exist"), deleted on condition that it is still there (the loser of two
 * concurrent deletes gets the same 404), drops its delivery schedule, then sends `reminders`
 * remove to the owner's queues.
 */
export const doDeleteReminder = async (user: User, reminderId: number): Promise<void> => {
  const reminder = await accessReminder(user, reminderId);
  if (!(await scheduledStore.deleteReminder(user.id, reminder.id))) throw new ResourceNotFoundError('Reminder does not exist');
  await dropDeliverySchedule(reminder);
  await sendEvent(user.realmId, { type: 'reminders', op: 'remove', reminder_id: reminder.id }, { users: [user.id] });
};

/** The caller's pending reminders (GET /reminders, register's `reminders`), by delivery time. */
export const listReminders = async (user: User): Promise<ScheduledMessage[]> =>
  pendingReminders(await scheduledStore.listScheduledMessagesOfUser(user.id));

/** Upstream's normalize_note_text: trailing whitespace and leading newlines go; then the length limit. */
const normalizeNote = (note: string, maxLength: number): string => {
  const body = stripBody(note);
  if (charLength(body) > maxLength) throw new BadRequestError(`Maximum reminder note length: ${maxLength} characters`);
  return body;
};

/** Upstream's get_reminder_formatted_content: what the reminder will say, quoting the message. */
const reminderContent = (
  message: Message,
  channel: Channel | undefined,
  sender: User | undefined,
  note: string,
  realmUrl: string,
  viewerId: number,
): string => {
  const noteSuffix = note ? ` Note:\n > ${note}` : '';
  let content = channel
    ? `You requested a reminder for #**${channel.name}>${message.topic}@${message.id}**.${noteSuffix}`
    : `You requested a reminder for the following direct message.${noteSuffix}`;
  const mention = `@_**${sender?.fullName ?? 'Unknown user'}|${message.senderId}**`;
  const url = messageLink(realmUrl, message, channel, viewerId);
  content += '\n\n';
  if (message.content.startsWith('/poll')) return `${content}${mention} [sent](${url}) a poll.`;
  if (message.content.startsWith('/todo')) return `${content}${mention} [sent](${url}) a todo list.`;
  content += `${mention} [said](${url}):\n`;
  const fence = unusedFence(content + message.content);
  // The quote gets what is left of MAX_MESSAGE_LENGTH, counted in characters as upstream does.
  const room = MAX_MESSAGE_LENGTH - charLength(`${content}${fence}quote\n\n${fence}`);
  return `${content}${fence}quote\n${truncateMessageContent(message.content, room)}\n${fence}`;
};

export type CreateReminderRequest = { messageId: number; scheduledDeliveryTimestamp: number; note: string | undefined };

/**
 * POST /reminders. Checks, in upstream's order: the delivery time is in the future, the message
 * is one the caller can read ("Invalid message(s)"), the note fits the organization's
 * max_reminder_note_length. Writes the reminder in the caller's partition, schedules its delivery
 * (lib/actions/scheduled-delivery.ts) and sends `reminders` add to the caller's queues. `realmUrl` is where the organization is served, for the message link.
 */
export const checkCreateReminder = async (
  user: User,
  realm: Realm,
  request: CreateReminderRequest,
  realmUrl: string,
): Promise<ScheduledMessage> => {
  if (request.scheduledDeliveryTimestamp <= nowSeconds()) throw new BadRequestError('Scheduled delivery time must be in the future.');
  const { message, channel } = await accessMessage(user, request.messageId, { modifying: false });
  const note = request.note === undefined ? '' : normalizeNote(request.note, realm.limits.max_reminder_note_length);
  const sender = await usersStore.get(realm.id, message.senderId);
  const content = reminderContent(message, channel, sender, note, realmUrl, user.id);
  const reminder: ScheduledMessage = {
    id: await allocateIds('scheduledMessage'),
    realmId: realm.id,
    senderId: user.id,
    kind: 'reminder',
    to: [user.id],
    streamId: null,
    topic: '',
    content,
    renderedContent: renderPlainMarkdown(content),
    scheduledDeliveryTimestamp: request.scheduledDeliveryTimestamp,
    reminderTargetMessageId: message.id,
    failed: false,
    delivered: false,
  };
  await scheduledStore.putScheduledMessage(reminder);
  await deliverySchedule(reminder);
  await sendEvent(
    realm.id,
    { type: 'reminders', op: 'add', reminders: [toApiReminder(reminder, renderPlainMarkdown)] },
    { users: [user.id] },
  );
  return reminder;
};
