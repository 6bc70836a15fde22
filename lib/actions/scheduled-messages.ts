// Send-later messages (upstream's zerver/views/scheduled_messages.py and
// zerver/actions/scheduled_messages.py), with upstream's checks in upstream's order: a scheduled
// message is checked as a send is (checkMessage, the one place of every send rule) when it is
// scheduled or edited, stored in its sender's partition, and delivered by the scheduledDelivery
// job at its time (lib/actions/scheduled-delivery.ts), which checks it again.
import { accessScheduledMessage } from '../access/reminders';
import { nowSeconds } from '../clock';
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { renderPlainMarkdown } from '../render';
import { defaultReadBySender } from '../models/message-send';
import type { Realm } from '../models/realm';
import { pendingScheduledMessages, toApiScheduledMessage, type ScheduledMessage } from '../models/scheduled-message';
import type { User } from '../models/user';
import { allocateIds } from '../store/common';
import * as scheduledStore from '../store/scheduled-messages';
import { checkTopicName, type CheckedMessage } from './messages/send';
import { checkScheduledSend, deliverySchedule, dropDeliverySchedule } from './scheduled-delivery';

/** `to` as upstream's Json[int | list[int]]: a channel's id, or user ids. */
export type ScheduledTo = number | number[];

export type ScheduleMessageRequest = {
  type: 'stream' | 'private';
  to: ScheduledTo;
  topic: string | undefined;
  content: string;
  scheduledDeliveryTimestamp: number;
  readBySender: boolean | undefined;
  client: string;
};

/** Upstream's DeliveryTimeNotInFutureError. */
const checkInFuture = (timestamp: number): void => {
  if (timestamp <= nowSeconds()) throw new BadRequestError('Scheduled delivery time must be in the future.');
};

/** Upstream's extract_stream_id and extract_direct_message_recipient_ids. */
const addresseeOf = (type: 'stream' | 'private', to: ScheduledTo): number | number[] => {
  if (type === 'stream') {
    if (Array.isArray(to)) throw new BadRequestError('Invalid data type for channel ID');
    return to;
  }
  if (!Array.isArray(to)) throw new BadRequestError('Invalid data type for recipients');
  return [...new Set(to)];
};

/** What a checked send makes of a scheduled message: its addressee (upstream's get_recipient_ids), topic and content. */
const fieldsOf = (
  sender: User,
  { send }: CheckedMessage,
): Pick<ScheduledMessage, 'to' | 'streamId' | 'topic' | 'content' | 'renderedContent'> => {
  const others = send.participants.map((u) => u.id).filter((id) => id !== sender.id);
  return {
    to: send.channel ? [] : others.length > 0 ? others : [sender.id],
    streamId: send.channel ? send.channel.id : null,
    topic: send.channel ? send.topic : '',
    content: send.content,
    renderedContent: send.rendered.html,
  };
};

const notify = (m: ScheduledMessage, event: 'add' | 'update'): Promise<void> =>
  sendEvent(
    m.realmId,
    event === 'add'
      ? { type: 'scheduled_messages', op: 'add', scheduled_messages: [toApiScheduledMessage(m, renderPlainMarkdown)] }
      : { type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(m, renderPlainMarkdown) },
    { users: [m.senderId] },
  );

/** GET /scheduled_messages: the caller's undelivered send-later messages (failed ones too), by delivery time. */
export const listScheduledMessages = async (user: User): Promise<ScheduledMessage[]> =>
  pendingScheduledMessages(await scheduledStore.listScheduledMessagesOfUser(user.id));

/**
 * POST /scheduled_messages. Checks, in upstream's order: the time is in the future, `to` fits the
 * type, then every check of a send (checkMessage). Writes the scheduled message, then its delivery
 * schedule, and sends `scheduled_messages` add to the caller's queues.
 */
export const checkScheduleMessage = async (user: User, realm: Realm, req: ScheduleMessageRequest): Promise<ScheduledMessage> => {
  checkInFuture(req.scheduledDeliveryTimestamp);
  const to = addresseeOf(req.type, req.to);
  const checked = await checkScheduledSend(user, realm, { ...req, to });
  const fields = fieldsOf(user, checked);
  const toSelfOnly = fields.streamId === null && fields.to.length === 1 && fields.to[0] === user.id;
  const message: ScheduledMessage = {
    id: await allocateIds('scheduledMessage'),
    realmId: realm.id,
    senderId: user.id,
    kind: 'send_later',
    ...fields,
    scheduledDeliveryTimestamp: req.scheduledDeliveryTimestamp,
    reminderTargetMessageId: null,
    failed: false,
    delivered: false,
    readBySender: req.readBySender ?? (defaultReadBySender(req.client) && !toSelfOnly),
    sendingClient: req.client,
  };
  await scheduledStore.putScheduledMessage(message);
  await deliverySchedule(message);
  await notify(message, 'add');
  return message;
};

export type EditScheduledMessageRequest = {
  type: 'stream' | 'private' | undefined;
  to: ScheduledTo | undefined;
  topic: string | undefined;
  content: string | undefined;
  scheduledDeliveryTimestamp: number | undefined;
  client: string;
};

/** The view's checks of PATCH /scheduled_messages/{id}, before the message is read, in upstream's order. */
const checkEditRequest = (req: EditScheduledMessageRequest): void => {
  const { type, to, topic, content, scheduledDeliveryTimestamp } = req;
  if ([type, to, topic, content, scheduledDeliveryTimestamp].every((v) => v === undefined)) throw new BadRequestError('Nothing to change');
  if (type !== undefined && to === undefined) throw new BadRequestError('Recipient required when updating type of scheduled message.');
  if (type === 'stream' && topic === undefined)
    throw new BadRequestError('Topic required when updating scheduled message type to channel.');
  if (scheduledDeliveryTimestamp !== undefined) checkInFuture(scheduledDeliveryTimestamp);
};

/**
 * PATCH /scheduled_messages/{id} (upstream's edit_scheduled_message): the caller's own send-later
 * message ("Scheduled message does not exist"), not delivered ("Scheduled message was already
 * sent"), a failed one only with a new time; a changed addressee or content is checked as a send
 * with the rest as stored, a topic alone as a topic. Clears `failed`. Replaced on condition that
 * its delivery has not started (else "already sent"); the schedule follows a new time; sends
 * `scheduled_messages` update to the caller's queues.
 */
export const checkEditScheduledMessage = async (user: User, realm: Realm, id: number, req: EditScheduledMessageRequest): Promise<void> => {
  checkEditRequest(req);
  const existing = await accessScheduledMessage(user, id, { consistent: true });
  if (existing.delivered === true || existing.deliveryMessageId !== undefined)
    throw new BadRequestError('Scheduled message was already sent');
  if (existing.failed && req.scheduledDeliveryTimestamp === undefined)
    throw new BadRequestError('Scheduled delivery time must be in the future.');
  const existingType = existing.streamId === null ? 'private' : 'stream';
  let updated: ScheduledMessage = { ...existing, sendingClient: req.client, failed: false };
  delete updated.failureMessage;
  if (req.type !== undefined || req.to !== undefined || req.content !== undefined) {
    const type = req.type ?? existingType;
    const to = req.to !== undefined ? addresseeOf(type, req.to) : existingType === 'stream' ? existing.streamId! : existing.to;
    const checked = await checkScheduledSend(user, realm, {
      type,
      to,
      topic: req.topic ?? existing.topic,
      content: req.content ?? existing.content,
      client: req.client,
    });
    const fields = fieldsOf(user, checked);
    if (req.type !== undefined || req.to !== undefined)
      updated = { ...updated, to: fields.to, streamId: fields.streamId, topic: fields.topic };
    else if (req.topic !== undefined && existingType === 'stream') updated.topic = checkTopicName(req.topic, realm);
    if (req.content !== undefined) updated = { ...updated, content: fields.content, renderedContent: fields.renderedContent };
  } else if (req.topic !== undefined && existingType === 'stream') {
    updated.topic = checkTopicName(req.topic, realm);
  }
  if (req.scheduledDeliveryTimestamp !== undefined) updated.scheduledDeliveryTimestamp = req.scheduledDeliveryTimestamp;
  if (!(await scheduledStore.replaceUndelivered(updated))) {
    const now = await scheduledStore.getScheduledMessageOfUser(user.id, id, { consistent: true });
    if (!now) throw new ResourceNotFoundError('Scheduled message does not exist');
    throw new BadRequestError('Scheduled message was already sent');
  }
  if (req.scheduledDeliveryTimestamp !== undefined) await deliverySchedule(updated);
  await notify(updated, 'update');
};

/**
 * DELETE /scheduled_messages/{id}: the caller's own send-later message ("Scheduled message does
 * not exist" otherwise), deleted on condition that it is still there (the loser of two deletes
 * gets the same 404), its schedule dropped; sends `scheduled_messages` remove to the caller's queues.
 */
export const doDeleteScheduledMessage = async (user: User, id: number): Promise<void> => {
  const message = await accessScheduledMessage(user, id);
  if (!(await scheduledStore.deleteSendLater(user.id, message.id))) throw new ResourceNotFoundError('Scheduled message does not exist');
  await dropDeliverySchedule(message);
  await sendEvent(user.realmId, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: message.id }, { users: [user.id] });
};
