// Delivery of scheduled messages and reminders at their time: the scheduledDelivery job, started
// by the message's one-time schedule (lib/store/schedules.ts: EventBridge Scheduler deployed, the
// process's own timer otherwise), as upstream's deliver_scheduled_messages worker
// (try_deliver_one_scheduled_message, send_scheduled_message, send_reminder). A run may be
// repeated (Scheduler's and Lambda's retries, a schedule of an earlier time): it sends the message
// at most once, by claiming the id of the message it writes before writing it
// (scheduledStore.claimDelivery), so that a repeated run writes that message or finds it written.
import { nowMs, nowSeconds } from '../clock';
import { ApiError } from '../errors';
import { sendEvent } from '../events/send';
import { renderPlainMarkdown } from '../render';
import type { Realm } from '../models/realm';
import { SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS, toApiScheduledMessage, type ScheduledMessage } from '../models/scheduled-message';
import { NOTIFICATION_BOT_EMAIL, type User } from '../models/user';
import * as messagesStore from '../store/messages';
import * as realmsStore from '../store/realms';
import * as scheduledStore from '../store/scheduled-messages';
import { deleteSchedule, putSchedule } from '../store/schedules';
import * as usersStore from '../store/users';
import { checkMessage, sendCheckedMessage, sendInternalMessage, type CheckedMessage } from './messages/send';
import { log } from '../log';

/** How early a run still delivers: the scheduler's clock and this function's may differ a little. */
const CLOCK_SKEW_MS = 5_000;

/** What the scheduledDelivery job is given: the scheduled message's key. */
export type ScheduledDeliveryJob = { realmId: number; userId: number; id: number };

const scheduleName = (m: ScheduledMessage): string => `scheduled-${m.realmId}-${m.senderId}-${m.id}`;

/** check_message for a scheduled message's addressee and content: every rule of a send, no write. */
export const checkScheduledSend = (
  sender: User,
  realm: Realm,
  send: { type: 'stream' | 'private'; to: number | number[]; topic: string | undefined; content: string; client: string },
): Promise<CheckedMessage> =>
  checkMessage(sender, realm, {
    type: send.type,
    to: JSON.stringify(send.to),
    topic: send.topic,
    content: send.content,
    client: send.client,
    readBySender: undefined,
    queueId: undefined,
    localId: undefined,
    forged: undefined,
    sender: undefined,
  });

/** Creates or moves the one-time schedule that delivers `m` at its time. */
export const deliverySchedule = (m: ScheduledMessage): Promise<void> =>
  putSchedule({
    name: scheduleName(m),
    atSeconds: m.scheduledDeliveryTimestamp,
    job: 'scheduledDelivery',
    payload: { realmId: m.realmId, userId: m.senderId, id: m.id } satisfies ScheduledDeliveryJob,
  });

/** Drops the schedule of a deleted scheduled message (one that has run is gone already). */
export const dropDeliverySchedule = (m: ScheduledMessage): Promise<void> => deleteSchedule(scheduleName(m));

/** A delivery that cannot happen: upstream's failure_message, and whether the sender is told (not when the account or organization is deactivated). */
class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly notifySender: boolean,
  ) {
    super(message);
  }
}

/**
 * The id of the message this delivery writes: the one a run before it claimed, or a new one it
 * claims now; undefined when the scheduled message changed meanwhile (edited, deleted, sent).
 */
const claimMessageId = async (m: ScheduledMessage, realmId: number): Promise<number | undefined> => {
  if (m.deliveryMessageId !== undefined) return m.deliveryMessageId;
  const id = await messagesStore.allocateMessageId(realmId);
  if (await scheduledStore.claimDelivery(m, m.scheduledDeliveryTimestamp, id)) return id;
  const now = await scheduledStore.getScheduledMessageOfUser(m.senderId, m.id, { consistent: true });
  return now && !now.failed && !now.delivered ? now.deliveryMessageId : undefined;
};

/** Marks a delivery done and tells the sender's clients it is no longer pending (`scheduled_messages` or `reminders` remove). */
const finishDelivery = async (m: ScheduledMessage, messageId: number): Promise<void> => {
  await scheduledStore.markDelivered(m, messageId);
  await sendEvent(
    m.realmId,
    m.kind === 'reminder'
      ? { type: 'reminders', op: 'remove', reminder_id: m.id }
      : { type: 'scheduled_messages', op: 'remove', scheduled_message_id: m.id },
    { users: [m.senderId] },
  );
};

/** Writes the message of a claimed delivery unless a run before this one did, then finishes it. Nothing when nothing was claimed. */
const sendOnce = async (m: ScheduledMessage, realm: Realm, write: (messageId: number) => Promise<unknown>): Promise<void> => {
  const messageId = await claimMessageId(m, realm.id);
  if (messageId === undefined) return;
  if (!(await messagesStore.getMessage(realm.id, messageId, { consistent: true }))) await write(messageId);
  await finishDelivery(m, messageId);
};

/** Upstream's send_scheduled_message for a send-later message: checked again as a send, as its sender, now. */
const deliverSendLater = async (m: ScheduledMessage, realm: Realm, sender: User): Promise<void> => {
  if (nowSeconds() > m.scheduledDeliveryTimestamp + SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS)
    throw new DeliveryFailure('Message could not be sent at the scheduled time.', true);
  const client = m.sendingClient ?? 'Internal';
  const checked = await checkScheduledSend(sender, realm, {
    type: m.streamId === null ? 'private' : 'stream',
    to: m.streamId ?? m.to,
    topic: m.topic,
    content: m.content,
    client,
  }).catch((error: unknown) => {
    if (error instanceof ApiError) throw new DeliveryFailure(error.message, true);
    throw error;
  });
  const readBy = checked.send.readBy;
  checked.send.readBy = (userId) => (userId === sender.id ? m.readBySender === true : readBy(userId));
  await sendOnce(m, realm, (messageId) => sendCheckedMessage(realm, sender, checked, { messageId }));
};

/** Upstream's send_reminder: Notification Bot's direct message to the reminder's owner, with its stored content. */
const deliverReminder = async (m: ScheduledMessage, realm: Realm, owner: User): Promise<void> => {
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) throw new DeliveryFailure('Reminder could not be sent.', false);
  await sendOnce(m, realm, (messageId) => sendInternalMessage(realm, bot, { user: owner }, m.content, [], { messageId }));
};

/** Upstream's datetime_to_global_time: a global time the renderer shows in each reader's zone. */
const globalTime = (timestamp: number): string => `<time:${new Date(timestamp * 1000).toISOString().slice(0, 19)}+00:00>`;

/** Upstream's send_failed_scheduled_message_notification: Notification Bot tells the sender. */
const notifyFailure = async (m: ScheduledMessage, realm: Realm, sender: User, why: string): Promise<void> => {
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) return;
  const content =
    `The message you scheduled for ${globalTime(m.scheduledDeliveryTimestamp)} was not sent because of the following error:\n\n` +
    `> ${why}\n\n[View scheduled messages](#scheduled)\n\n`;
  await sendInternalMessage(realm, bot, { user: sender }, content);
};

/**
 * The scheduledDelivery job: delivers one scheduled message whose time has come. Nothing when it
 * is gone, delivered or failed; when it is not yet due, its schedule is put again for its time. A send-later
 * message is checked again as a send by its sender (the organization or the account deactivated,
 * the channel archived, permissions lost, more than 10 minutes late: upstream's failures), then
 * sent once; a reminder is Notification Bot's direct message. Emits `scheduled_messages` (or
 * `reminders`) remove to the sender. A failure marks it failed (`failed: true`, upstream's
 * failure_message) and, for a send-later message of an active sender, sends `scheduled_messages`
 * update and Notification Bot's direct message saying why. Other errors are thrown (the job is retried).
 */
export const doDeliverScheduledMessage = async (job: ScheduledDeliveryJob): Promise<void> => {
  const m = await scheduledStore.getScheduledMessageOfUser(job.userId, job.id, { consistent: true });
  if (!m || m.realmId !== job.realmId || m.delivered === true || m.failed) return;
  // Early (a schedule that fired before a clock that lags, or of a time since moved): its schedule
  // is put again for the time it has, the same one when nothing changed.
  if (m.scheduledDeliveryTimestamp * 1000 > nowMs() + CLOCK_SKEW_MS) return deliverySchedule(m);
  // A run before this one wrote the message and stopped before marking it: sent, whatever has changed since.
  if (m.deliveryMessageId !== undefined && (await messagesStore.getMessage(m.realmId, m.deliveryMessageId, { consistent: true })))
    return finishDelivery(m, m.deliveryMessageId);
  const [realm, sender] = await Promise.all([realmsStore.get(m.realmId), usersStore.get(m.realmId, m.senderId)]);
  try {
    if (!realm || realm.deactivated) throw new DeliveryFailure('This organization has been deactivated', false);
    if (!sender || !sender.isActive) throw new DeliveryFailure('Account is deactivated', false);
    if (m.kind === 'reminder') await deliverReminder(m, realm, sender);
    else await deliverSendLater(m, realm, sender);
  } catch (error) {
    if (!(error instanceof DeliveryFailure)) throw error;
    log.info('scheduled message not sent', { realmId: m.realmId, id: m.id, why: error.message });
    if (!(await scheduledStore.markFailed(m, m.scheduledDeliveryTimestamp, error.message))) return;
    if (m.kind === 'reminder' || !error.notifySender || !realm || !sender) return;
    const failed: ScheduledMessage = { ...m, failed: true, failureMessage: error.message };
    delete failed.deliveryMessageId;
    await sendEvent(
      m.realmId,
      { type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(failed, renderPlainMarkdown) },
      { users: [m.senderId] },
    );
    await notifyFailure(m, realm, sender, error.message);
  }
};
