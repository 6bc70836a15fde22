// Scheduled messages and reminders, in their sender's partition (USER#<uid>, SCHED#<id>): a
// user's reminder is found by its key alone, so another user's id simply is not there.
import { DeleteCommand, GetCommand, type DeleteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ScheduledMessage } from '../models/scheduled-message';
import { documentClient, tableName } from './client';
import { type Item, queryPrefix, putNewItem, sendConditional, stripKeys } from './common';
import { entityKeys } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const toScheduled = (item: Item): ScheduledMessage => stripKeys(item) as ScheduledMessage;

/** One of the user's scheduled messages (any kind), or undefined. */
export const getScheduledMessageOfUser = async (userId: number, id: number): Promise<ScheduledMessage | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.scheduledMessage(userId, id) }));
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

/** Deletes a reminder only while it exists and is a reminder of that user. */
export const buildDeleteReminderInput = (userId: number, reminderId: number): DeleteCommandInput => ({
  TableName: tableName('main'),
  Key: entityKeys.scheduledMessage(userId, reminderId),
  ConditionExpression: 'attribute_exists(pk) AND #kind = :reminder AND #sender = :sender',
  ExpressionAttributeNames: { '#kind': 'kind', '#sender': 'senderId' },
  ExpressionAttributeValues: { ':reminder': 'reminder', ':sender': userId },
});

/** Returns false when there was no such reminder any more (a lost race with another delete). */
export const deleteReminder = async (userId: number, reminderId: number): Promise<boolean> => {
  return sendConditional(new DeleteCommand(buildDeleteReminderInput(userId, reminderId)));
};
