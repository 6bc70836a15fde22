// Messages (realm partition) and per-receiver message rows (user partition). Reads only, named by
// access pattern.
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DmConversation, Message, UnreadMessage, UserMessage } from '../models/message';
import { documentClient, tableName } from './client';
import { queryPrefix, stripKeys, type Item } from './common';
import { entityKeys } from './keys';

/** A message of an organization, or undefined (another organization's id looks missing). */
export const getMessage = async (realmId: number, messageId: number): Promise<Message | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.message(realmId, messageId) }));
  return out.Item ? (stripKeys(out.Item) as Message) : undefined;
};

/** The receiver's row of a message: present when the user received it. */
export const getUserMessage = async (userId: number, messageId: number): Promise<UserMessage | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.userMessage(userId, messageId) }));
  return out.Item ? (stripKeys(out.Item) as Item as UserMessage) : undefined;
};

export const buildNewestMessageIdInput = (userId: number): QueryCommandInput => {
  const k = entityKeys.userMessagesOfUser(userId);
  return {
    TableName: tableName('main'),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    ScanIndexForward: false,
    Limit: 1,
    ProjectionExpression: 'messageId',
  };
};

/** The id of the newest message the user received, or undefined: one item read. */
export const getNewestMessageIdOfUser = async (userId: number): Promise<number | undefined> => {
  const out = await documentClient().send(new QueryCommand(buildNewestMessageIdInput(userId)));
  const item = out.Items?.[0];
  return item ? Number(item.messageId) : undefined;
};

/** Pages a Query (newest or oldest first, as the input says) until `limit` items are read. */
const queryUpTo = async (input: QueryCommandInput, limit: number): Promise<Item[]> => {
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, Limit: limit - items.length, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < limit);
  return items;
};

export const buildListUnreadInput = (userId: number): QueryCommandInput => ({
  TableName: tableName('main'),
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': entityKeys.unreadOfUser(userId).gsi1pk },
  ScanIndexForward: false,
  ProjectionExpression: 'messageId, senderId, streamId, topic, dmUserIds, flags',
});

/**
 * The user's newest unread messages, at most `limit`, newest first, from the sparse unread index
 * (a message leaves it when read), so the cost follows the unread count, not the history.
 * `truncated` says whether older unread messages were left out.
 */
export const listNewestUnreadOfUser = async (userId: number, limit: number): Promise<{ messages: UnreadMessage[]; truncated: boolean }> => {
  const items = await queryUpTo(buildListUnreadInput(userId), limit + 1);
  const messages = items.slice(0, limit).map((item) => ({
    messageId: Number(item.messageId),
    senderId: Number(item.senderId),
    streamId: item.streamId === null || item.streamId === undefined ? null : Number(item.streamId),
    topic: String(item.topic ?? ''),
    dmUserIds: ((item.dmUserIds as number[] | undefined) ?? []).map(Number),
    flags: (item.flags as string[] | undefined) ?? [],
  }));
  return { messages, truncated: items.length > limit };
};

export const buildListStarredInput = (userId: number): QueryCommandInput => ({
  TableName: tableName('main'),
  IndexName: 'gsi2',
  KeyConditionExpression: 'gsi2pk = :pk',
  ExpressionAttributeValues: { ':pk': entityKeys.starredOfUser(userId).gsi2pk },
  ScanIndexForward: true,
  ProjectionExpression: 'messageId',
});

/** The ids of the user's starred messages, ascending, at most `limit` (the sparse starred index). */
export const listStarredIdsOfUser = async (userId: number, limit: number): Promise<number[]> =>
  (await queryUpTo(buildListStarredInput(userId), limit)).map((item) => Number(item.messageId));

/** The user's direct-message conversations, each with its newest message id (unordered). */
export const listDmConversationsOfUser = async (userId: number): Promise<DmConversation[]> => {
  const k = entityKeys.dmConversationsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix)).map((item) => ({
    userIds: ((item.userIds as number[] | undefined) ?? []).map(Number),
    maxMessageId: Number(item.maxMessageId),
  }));
};

/** The stored item of a message (realm partition). */
export const buildMessageItem = (m: Message): Item => ({ ...entityKeys.message(m.realmId, m.id), ...m });

/**
 * The stored item of a receiver's row for a message: in the unread index while not read, in the
 * starred index while starred. It repeats what the unread summary needs of the message.
 */
export const buildUserMessageItem = (m: Message, userId: number, flags: string[]): Item => ({
  ...entityKeys.userMessage(userId, m.id),
  ...(flags.includes('read') ? {} : entityKeys.unreadMessage(userId, m.id)),
  ...(flags.includes('starred') ? entityKeys.starredMessage(userId, m.id) : {}),
  userId,
  messageId: m.id,
  realmId: m.realmId,
  senderId: m.senderId,
  streamId: m.streamId,
  topic: m.topic,
  dmUserIds: m.dmUserIds,
  flags,
  dateSent: m.dateSent,
});
