// Scheduled messages and reminders, in their sender's partition (USER#<uid>, SCHED#<id>): a
// user's scheduled message is found by its key alone, so another user's id simply is not there.
// Every change of state is conditional: an edit or a delete of a send-later message against its
// delivery, a delivery's claim against a second run of the same job (docs/data-model.md).
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DeleteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ScheduledMessage } from '../models/scheduled-message';
import { documentClient, tableName } from './client';
import { type Item, queryPrefix, putNewItem, sendConditional, stripKeys } from './common';
import { entityKeys } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const toScheduled = (item: Item): ScheduledMessage => stripKeys(item) as ScheduledMessage;

/** One of the user's scheduled messages (any kind), or undefined. `consistent` for a delivery, which must see the latest edit. */
export const getScheduledMessageOfUser = async (
  userId: number,
  id: number,
  opts: { consistent?: boolean } = {},
): Promise<ScheduledMessage | undefined> => {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: entityKeys.scheduledMessage(userId, id),
      ConsistentRead: opts.consistent ?? false,
    }),
  );
  return out.Item ? toScheduled(out.Item) : undefined;
};

/** Every scheduled message of a user (reminders and send-later messages), in id order. */
export const listScheduledMessagesOfUser = async (userId: number): Promise<ScheduledMessage[]> => {
  const k = entityKeys.scheduledMessagesOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map(toScheduled);
};

export const putScheduledMessage = async (message: ScheduledMessage): Promise<void> => {
  await putNewItem('main', { ...entityKeys.scheduledMessage(message.senderId, message.id), ...message });
};

/** Deletes a scheduled message only while it exists, is of that kind and is that user's. */
export const buildDeleteScheduledInput = (userId: number, id: number, kind: ScheduledMessage['kind']): DeleteCommandInput => ({
  TableName: tableName('main'),
  Key: entityKeys.scheduledMessage(userId, id),
  ConditionExpression: 'attribute_exists(pk) AND #kind = :kind AND #sender = :sender',
  ExpressionAttributeNames: { '#kind': 'kind', '#sender': 'senderId' },
  ExpressionAttributeValues: { ':kind': kind, ':sender': userId },
});

/** Returns false when there was no such reminder any more (a lost race with another delete). */
export const deleteReminder = async (userId: number, reminderId: number): Promise<boolean> =>
  sendConditional(new DeleteCommand(buildDeleteScheduledInput(userId, reminderId, 'reminder')));

/** Returns false when there was no such send-later message any more (a lost race with another delete). */
export const deleteSendLater = async (userId: number, id: number): Promise<boolean> =>
  sendConditional(new DeleteCommand(buildDeleteScheduledInput(userId, id, 'send_later')));

/** Not delivered: the seed's scheduled messages have no `delivered` attribute. */
const NOT_DELIVERED = '(attribute_not_exists(delivered) OR delivered = :false)';

/**
 * Replaces an edited send-later message, only while its delivery has not started (neither
 * delivered nor claimed by a delivery): false when it has, so the edit loses to the delivery.
 */
export const replaceUndelivered = async (message: ScheduledMessage): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.scheduledMessage(message.senderId, message.id), ...message },
      ConditionExpression: `attribute_exists(pk) AND ${NOT_DELIVERED} AND attribute_not_exists(deliveryMessageId)`,
      ExpressionAttributeValues: { ':false': false },
    }),
  );

/** What a delivery run relies on still holding: not delivered, not failed, due at the time it read. */
const UNSENT = `attribute_exists(pk) AND ${NOT_DELIVERED} AND failed = :false AND scheduledDeliveryTimestamp = :ts`;

/**
 * A delivery's claim: records the id of the message it is about to write, only while the
 * scheduled message is unsent, due at `timestamp` and unclaimed. False when another run claimed it
 * first, or an edit or a delete came in between.
 */
export const claimDelivery = async (m: ScheduledMessage, timestamp: number, messageId: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.scheduledMessage(m.senderId, m.id),
      UpdateExpression: 'SET deliveryMessageId = :mid',
      ConditionExpression: `${UNSENT} AND attribute_not_exists(deliveryMessageId)`,
      ExpressionAttributeValues: { ':false': false, ':ts': timestamp, ':mid': messageId },
    }),
  );

/** Marks a claimed delivery done (idempotent: a retry that finds it done changes nothing). */
export const markDelivered = async (m: ScheduledMessage, messageId: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.scheduledMessage(m.senderId, m.id),
      UpdateExpression: 'SET delivered = :true',
      ConditionExpression: 'deliveryMessageId = :mid',
      ExpressionAttributeValues: { ':true': true, ':mid': messageId },
    }),
    { ownWrite: (stored) => stored?.delivered === true },
  );

/**
 * Marks an unsent message failed with upstream's failure_message (dropping a claim whose message
 * was never written): false when it was meanwhile delivered, failed, edited or deleted.
 */
export const markFailed = async (m: ScheduledMessage, timestamp: number, failureMessage: string): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.scheduledMessage(m.senderId, m.id),
      UpdateExpression: 'SET failed = :true, failureMessage = :why REMOVE deliveryMessageId',
      ConditionExpression: UNSENT,
      ExpressionAttributeValues: { ':false': false, ':true': true, ':ts': timestamp, ':why': failureMessage },
    }),
  );
