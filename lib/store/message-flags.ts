// Writes of a user's personal message flags (the row USER#<uid>/UM#<mid>): the flags list and the
// sparse index entries that follow it (UNREAD while not read, STARRED while starred). Every write is
// conditional on the flags it was computed from, so a concurrent change is never lost: the loser
// re-reads and tries again.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Message, UserMessage } from '../models/message';
import { documentClient, tableName } from './client';
import { sendConditional, stripKeys, type Item } from './common';
import { entityKeys } from './keys';
import { buildUserMessageItem, recordRowHolder } from './messages';

/**
 * Replaces a row's flags with `next` if they are still `previous`, moving the row into or out of
 * the unread and starred indexes. False when the row changed meanwhile (or is gone).
 */
export const replaceUserMessageFlags = (userId: number, messageId: number, previous: string[], next: string[]): Promise<boolean> => {
  const set = ['flags = :next'];
  const remove: string[] = [];
  const values: Record<string, unknown> = { ':next': next, ':previous': previous };
  const unread = entityKeys.unreadMessage(userId, messageId);
  if (next.includes('read')) remove.push('gsi1pk', 'gsi1sk');
  else {
    set.push('gsi1pk = :unreadPk', 'gsi1sk = :unreadSk');
    Object.assign(values, { ':unreadPk': unread.gsi1pk, ':unreadSk': unread.gsi1sk });
  }
  const starred = entityKeys.starredMessage(userId, messageId);
  if (next.includes('starred')) {
    set.push('gsi2pk = :starredPk', 'gsi2sk = :starredSk');
    Object.assign(values, { ':starredPk': starred.gsi2pk, ':starredSk': starred.gsi2sk });
  } else remove.push('gsi2pk', 'gsi2sk');
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.userMessage(userId, messageId),
      UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND flags = :previous',
      ExpressionAttributeValues: values,
    }),
  );
};

/**
 * Creates the row of a message the user did not receive (upstream's historical rows), with
 * `flags`, after recording the user among the message's row holders (so edits and deletes find
 * the row). False when a row already exists (created concurrently).
 */
export const createHistoricalUserMessage = async (message: Message, userId: number, flags: string[]): Promise<boolean> => {
  await recordRowHolder(message.realmId, message.id, userId);
  return sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: buildUserMessageItem(message, userId, flags),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** A user's row of a message, read consistently (the retry of a lost conditional write). */
export const getUserMessageConsistent = async (userId: number, messageId: number): Promise<UserMessage | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.userMessage(userId, messageId), ConsistentRead: true }),
  );
  return out.Item ? (stripKeys(out.Item) as Item as UserMessage) : undefined;
};
