// Later writes to messages: edits and moves (the message item, its topic index entry and the
// recipients' rows) and deletes (the item, the rows, and the summaries a send raised: the topic
// summary, the direct-message conversation items, the channel's first message id). The layout and
// the send's writer are lib/store/messages.ts; this module only changes what it wrote.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CONTENT_FLAGS, MENTION_FLAGS, type Message } from '../models/message';
import type { EditHistoryEntry } from '../models/message-edit';
import { documentClient, tableName } from './client';
import { buildUserMessageItem, MAX_RECIPIENT_PARTS, recordRowHolders } from './messages';
import { batchDelete, batchGet, deleteIfStill, queryAll, sendConditional, stripKeys, type Item } from './common';
import { entityKeys, lookupKey } from './keys';
import { listSubmessageKeysOfMessage } from './submessages';

/** The rows of a message among `candidateUserIds` (one BatchGetItem per 100): who received it, with their flags. */
export const listRowsOfMessage = async (messageId: number, candidateUserIds: number[]): Promise<{ userId: number; flags: string[] }[]> => {
  const ids = [...new Set(candidateUserIds)];
  const items = await batchGet(
    'main',
    ids.map((id) => entityKeys.userMessage(id, messageId)),
    { consistent: true },
  );
  return items
    .map((item) => ({ userId: Number(item.userId), flags: ((item.flags as string[] | undefined) ?? []).map(String) }))
    .sort((a, b) => a.userId - b.userId);
};

/** The message ids of a topic (case-insensitive), ascending, from the topic index. */
/**
 * The most messages one topic move rewrites (upstream moves every message of the topic in one
 * UPDATE): a larger topic is refused with an error rather than read without end.
 */
const MAX_MOVED_TOPIC_MESSAGES = 100_000;

export const listMessageIdsOfTopic = async (channelId: number, topic: string): Promise<number[]> => {
  const items = await queryAll(
    {
      TableName: tableName('main'),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': entityKeys.messagesOfTopic(channelId, topic).gsi2pk },
      ProjectionExpression: 'id',
    },
    { max: MAX_MOVED_TOPIC_MESSAGES },
  );
  return items.map((item) => Number(item.id)).sort((a, b) => a - b);
};

/**
 * Writes an edit of a message: the given fields, the topic's index entry when the topic changed,
 * and the new history. Conditional on the history the caller read (its length), so of two
 * concurrent edits one loses and re-reads. False when the message changed or is gone.
 */
export const writeMessageEdit = async (
  m: Message,
  changes: {
    content?: string;
    renderedContent?: string;
    topic?: string;
    /** A move to another channel: the message leaves its channel's and topic's indexes for the new one's. */
    streamId?: number;
    topicLinks?: { text: string; url: string }[];
    hasLink?: boolean;
  },
  history: EditHistoryEntry[],
): Promise<boolean> => {
  const set: Record<string, unknown> = { ...changes, editHistory: history };
  if ((changes.topic !== undefined || changes.streamId !== undefined) && m.streamId !== null) {
    const channelId = changes.streamId ?? m.streamId;
    Object.assign(set, entityKeys.topicMessage(channelId, changes.topic ?? m.topic, m.id));
    if (changes.streamId !== undefined) Object.assign(set, entityKeys.channelMessage(channelId, m.id));
  }
  const names = Object.keys(set).filter((k) => set[k] !== undefined);
  const readLength = m.editHistory?.length ?? 0;
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.message(m.realmId, m.id),
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ConditionExpression:
        readLength === 0
          ? 'attribute_exists(pk) AND attribute_not_exists(editHistory)'
          : 'attribute_exists(pk) AND size(editHistory) = :len',
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(names.map((n, i) => [`:v${i}`, set[n]])),
        ...(readLength === 0 ? {} : { ':len': readLength }),
      },
    }),
  );
};

/**
 * Sets the conversation the rows of a moved message copy (the unread summary and the narrows read
 * it): the topic, and after a move to another channel the channel and the row's place among the
 * user's rows of a conversation (gsi3).
 */
export const setTopicOfRows = async (messageId: number, userIds: number[], topic: string, streamId?: number): Promise<void> => {
  await Promise.all(
    userIds.map((userId) => {
      const conversation = streamId === undefined ? undefined : entityKeys.userMessageInConversation(userId, streamId, messageId);
      return sendConditional(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: entityKeys.userMessage(userId, messageId),
          UpdateExpression: conversation ? 'SET topic = :t, streamId = :s, gsi3pk = :g3' : 'SET topic = :t',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':t': topic, ...(conversation ? { ':s': streamId, ':g3': conversation.gsi3pk } : {}) },
        }),
      );
    }),
  );
};

/** Removes the rows of a message that moved to a channel whose history these users may not read. */
export const deleteRowsOfMessage = async (messageId: number, userIds: number[]): Promise<void> => {
  await batchDelete(
    'main',
    userIds.map((userId) => entityKeys.userMessage(userId, messageId)),
  );
};

/**
 * Gives users a read row of a message that moved into a channel with protected history (upstream's
 * bulk_insert_all_ums with `read`): recorded among its row holders first, then each row written
 * only where none exists (a row already there keeps its flags). `m` is the message as moved.
 */
export const addReadRows = async (m: Message, userIds: number[]): Promise<void> => {
  if (userIds.length === 0) return;
  await recordRowHolders(m.realmId, m.id, userIds);
  await Promise.all(
    userIds.map((userId) =>
      sendConditional(
        new PutCommand({
          TableName: tableName('main'),
          Item: buildUserMessageItem(m, userId, ['read']),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),
  );
};

/**
 * Replaces the flags a row has from its message's content (CONTENT_FLAGS: mentions and
 * has_alert_word, after a content edit), keeping its other flags, and keeps the row in the
 * mentioned index exactly while a mention flag is set. Conditional on the flags read, so a
 * concurrent read or star is never lost: on a lost race it reads the row again.
 */
export const setMentionFlagsOfRow = async (userId: number, messageId: number, contentFlags: string[]): Promise<string[] | undefined> => {
  const mentionFlags = contentFlags.filter((f) => MENTION_FLAGS.includes(f));
  for (;;) {
    const out = await documentClient().send(
      new GetCommand({ TableName: tableName('main'), Key: entityKeys.userMessage(userId, messageId), ConsistentRead: true }),
    );
    const row = out.Item;
    if (!row) return undefined;
    const before = ((row.flags as string[] | undefined) ?? []).map(String);
    const after = [...before.filter((f) => !CONTENT_FLAGS.includes(f)), ...contentFlags];
    if (after.length === before.length && after.every((f) => before.includes(f))) return before;
    const mentioned = entityKeys.mentionedMessage(userId, messageId);
    const written = await sendConditional(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: entityKeys.userMessage(userId, messageId),
        UpdateExpression:
          mentionFlags.length > 0 ? 'SET flags = :after, gsi4pk = :g4pk, gsi4sk = :g4sk' : 'SET flags = :after REMOVE gsi4pk, gsi4sk',
        ConditionExpression: 'flags = :before',
        ExpressionAttributeValues: {
          ':after': after,
          ':before': before,
          ...(mentionFlags.length > 0 ? { ':g4pk': mentioned.gsi4pk, ':g4sk': mentioned.gsi4sk } : {}),
        },
      }),
    );
    if (written) return after;
  }
};

/** The newest (or oldest) message id of an index partition other than `excludeIds` (an index may still show them). */
const edgeOf = async (
  index: 'gsi1' | 'gsi2',
  pk: string,
  newest: boolean,
  excludeIds: number[],
): Promise<{ id: number; topic: string } | undefined> => {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: !newest,
      Limit: excludeIds.length + 1,
      ProjectionExpression: 'id, topic',
    }),
  );
  return (out.Items ?? [])
    .map((item) => ({ id: Number(item.id), topic: String(item.topic ?? '') }))
    .find((m) => !excludeIds.includes(m.id));
};

/**
 * Lowers a summary that named `removedId` as its newest message to the conversation's newest
 * remaining message (or removes it when none is left). Conditional on it still naming
 * `removedId`, so a send that raised it meanwhile wins.
 */
const lowerSummary = async (
  key: { pk: string; sk: string },
  removedId: number,
  newest: { id: number; topic?: string } | undefined,
): Promise<void> => {
  if (newest === undefined) {
    await deleteIfStill(key, 'maxMessageId', removedId);
    return;
  }
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: key,
      UpdateExpression: newest.topic === undefined ? 'SET maxMessageId = :new' : 'SET maxMessageId = :new, topic = :topic',
      ConditionExpression: 'maxMessageId = :old',
      ExpressionAttributeValues: {
        ':old': removedId,
        ':new': newest.id,
        ...(newest.topic === undefined ? {} : { ':topic': newest.topic }),
      },
    }),
  );
};

/** After `messageId` left a topic (deleted or moved away): the topic summary names its newest remaining message. */
export const lowerTopicSummary = async (channelId: number, topic: string, messageId: number): Promise<void> => {
  const newest = await edgeOf('gsi2', entityKeys.messagesOfTopic(channelId, topic).gsi2pk, true, [messageId]);
  await lowerSummary(entityKeys.topicSummary(channelId, topic), messageId, newest);
};

/**
 * After `movedIds` moved from topic `from` of a channel to topic `to` of it (or of `toChannelId`):
 * the old topic's summary names its newest remaining message (or goes), and the new one names the newest moved message
 * with the topic as now spelled. A change of case only keeps one summary, respelled when it named
 * a moved message.
 */
export const moveTopicSummary = async (
  realmId: number,
  channelId: number,
  from: string,
  to: string,
  movedIds: number[],
  toChannelId: number = channelId,
): Promise<void> => {
  const maxMoved = Math.max(...movedIds);
  const oldKey = entityKeys.topicSummary(channelId, from);
  const read = await batchGet('main', [oldKey], { consistent: true });
  const summaryMax = read[0] ? Number(read[0].maxMessageId) : undefined;
  if (toChannelId === channelId && from.toLowerCase() === to.toLowerCase()) {
    if (summaryMax === undefined || !movedIds.includes(summaryMax)) return;
    await sendConditional(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: oldKey,
        UpdateExpression: 'SET topic = :t',
        ConditionExpression: 'maxMessageId = :m',
        ExpressionAttributeValues: { ':t': to, ':m': summaryMax },
      }),
    );
    return;
  }
  if (summaryMax !== undefined && movedIds.includes(summaryMax)) {
    const newest = await edgeOf('gsi2', entityKeys.messagesOfTopic(channelId, from).gsi2pk, true, movedIds);
    await lowerSummary(oldKey, summaryMax, newest);
  }
  await raiseTopicSummary(realmId, toChannelId, to, maxMoved);
};

/** After messages entered a topic (moved in): its summary names the newest, with the topic as now spelled. */
export const raiseTopicSummary = async (realmId: number, channelId: number, topic: string, maxMessageId: number): Promise<void> => {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.topicSummary(channelId, topic),
      UpdateExpression: 'SET maxMessageId = :v, channelId = :c, topic = :t, realmId = :r',
      ConditionExpression: 'attribute_not_exists(maxMessageId) OR maxMessageId < :v',
      ExpressionAttributeValues: { ':v': maxMessageId, ':c': channelId, ':t': topic, ':r': realmId },
    }),
  );
};

/**
 * Deletes a message: the item (conditional on its existence: false when a concurrent delete won),
 * then the rows of `rowUserIds`, the message's recipients record and its submessages, then lowers the summaries that named it: the topic summary, or each
 * participant's direct-message conversation item. Returns the channel's new first message id when
 * the message was its first (null when the channel has no message left).
 */
export const deleteMessage = async (
  m: Message,
  rowUserIds: number[],
  firstMessageIdOfChannel: number | null | undefined,
): Promise<{ deleted: boolean; firstMessageId?: number | null }> => {
  const deleted = await sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.message(m.realmId, m.id),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
  if (!deleted) return { deleted };
  await batchDelete(
    'main',
    rowUserIds.map((userId) => entityKeys.userMessage(userId, m.id)),
  );
  // The recipients record last: a crash before it leaves ids that name no row, never a row unfound.
  const recipients = entityKeys.recipientsOfMessage(m.realmId, m.id);
  const recipientItems = await queryAll(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': recipients.pk, ':prefix': recipients.skPrefix },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    },
    { max: MAX_RECIPIENT_PARTS },
  );
  await batchDelete(
    'main',
    recipientItems.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
  );
  // Its submessages (none can be added once the message item is gone).
  await batchDelete('main', await listSubmessageKeysOfMessage(m.realmId, m.id));
  if (m.streamId === null) {
    const found = await edgeOf('gsi1', entityKeys.messagesOfDmConversation(m.realmId, m.dmUserIds).gsi1pk, true, [m.id]);
    const newest = found && { id: found.id };
    await Promise.all(
      m.dmUserIds.map((userId) =>
        lowerSummary(
          entityKeys.dmConversation(
            userId,
            m.dmUserIds.filter((id) => id !== userId),
          ),
          m.id,
          newest,
        ),
      ),
    );
    return { deleted };
  }
  await lowerTopicSummary(m.streamId, m.topic, m.id);
  if (firstMessageIdOfChannel !== m.id) return { deleted };
  const first = (await edgeOf('gsi1', entityKeys.messagesOfChannel(m.streamId).gsi1pk, false, [m.id]))?.id ?? null;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.channel(m.realmId, m.streamId),
      UpdateExpression: 'SET firstMessageId = :new',
      ConditionExpression: 'firstMessageId = :old',
      ExpressionAttributeValues: { ':old': m.id, ':new': first },
    }),
  );
  return { deleted, firstMessageId: first };
};

/** A message item (consistent read: an edit re-checks what it read). */
export const getEditableMessage = async (realmId: number, messageId: number): Promise<Message | undefined> => {
  const items = await batchGet('main', [entityKeys.message(realmId, messageId)], { consistent: true });
  return items[0] ? (stripKeys(items[0] as Item) as Message) : undefined;
};

/** Message items by id (consistent reads, one BatchGetItem per 100), in the order of `messageIds`; missing ones left out. */
export const getEditableMessages = async (realmId: number, messageIds: number[]): Promise<Message[]> => {
  const items = await batchGet(
    'main',
    messageIds.map((id) => entityKeys.message(realmId, id)),
    { consistent: true },
  );
  const byId = new Map(items.map((item) => [Number(item.id), stripKeys(item as Item) as Message]));
  return messageIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};

/** How long a finished move's marker is kept: past Lambda's retries (6 h) and the dead-letter queue's 14 days. */
const MOVE_MARKER_KEPT_SECONDS = 15 * 24 * 3600;

/**
 * Claims the end of a move done in batches (lib/actions/messages/move.ts): a marker in the moved
 * message's partition, keyed by the edit's timestamp. True for the one run that writes it, false
 * for a retried or replayed run that finds it (so the move's last steps happen at most once).
 */
export const claimMoveFinish = async (realmId: number, messageId: number, editTimestamp: number): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: {
        ...entityKeys.messageMoveFinished(realmId, messageId, editTimestamp),
        expiresAt: editTimestamp + MOVE_MARKER_KEPT_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );

/** Whether a topic of a channel has a message other than `excludeIds` (one index query of at most excludeIds + 1 ids). */
export const hasTopicMessagesOtherThan = async (channelId: number, topic: string, excludeIds: number[]): Promise<boolean> => {
  const key = lookupKey(() => entityKeys.messagesOfTopic(channelId, topic));
  if (!key) return false;
  return (await edgeOf('gsi2', key.gsi2pk, true, excludeIds)) !== undefined;
};
