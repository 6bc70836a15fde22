// Messages (each in its own partition), per-receiver message rows (user partition), direct-message
// conversation items and topic summaries: the layout of docs/data-model.md, "Messages: keys,
// indexes, …". Reads are named by access pattern; writeNewMessage is the one writer of a send. A
// channel's topics are read in topics.ts, a pending delivery is taken over in pending-deliveries.ts.
import { GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Channel } from '../models/channel';
import {
  MENTION_FLAGS,
  type DmConversation,
  type Message,
  type MessageRecipient,
  type TopicSummary,
  type UnreadMessage,
  type UserMessage,
} from '../models/message';
import { mapLimited } from '../concurrency';
import { documentClient, tableName } from './client';
import {
  allocateIds,
  batchGet,
  batchPut,
  queryAll,
  queryPrefix,
  putNewItem,
  sendConditional,
  sendTransaction,
  stripKeys,
  type Item,
} from './common';
import { entityKeys, lookupKey, pad } from './keys';
import { MAX_ORGANIZATION_USERS, MAX_USER_OBJECTS } from './limits';

/** A message of an organization, or undefined (another organization's id looks missing). */
export const getMessage = async (realmId: number, messageId: number, opts: { consistent?: boolean } = {}): Promise<Message | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.message(realmId, messageId), ConsistentRead: opts.consistent ?? false }),
  );
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
  const items = await queryAll(buildListUnreadInput(userId), { max: limit + 1, overflow: 'truncate' });
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
  (await queryAll(buildListStarredInput(userId), { max: limit, overflow: 'truncate' })).map((item) => Number(item.messageId));

/** The user's direct-message conversations, each with its newest message id (unordered). */
export const listDmConversationsOfUser = async (userId: number): Promise<DmConversation[]> => {
  const k = entityKeys.dmConversationsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map((item) => ({
    userIds: ((item.userIds as number[] | undefined) ?? []).map(Number),
    maxMessageId: Number(item.maxMessageId),
  }));
};

/**
 * The stored item of a message: its own partition, in its channel's and topic's indexes (gsi1,
 * gsi2) or its direct-message conversation's (gsi1).
 */
export const buildMessageItem = (m: Message): Item => ({
  ...entityKeys.message(m.realmId, m.id),
  ...(m.streamId === null
    ? entityKeys.dmMessage(m.realmId, m.dmUserIds, m.id)
    : { ...entityKeys.channelMessage(m.streamId, m.id), ...entityKeys.topicMessage(m.streamId, m.topic, m.id) }),
  ...m,
});

/**
 * The stored item of a receiver's row for a message: in the unread index while not read, in the
 * starred index while starred. It repeats what the unread summary needs of the message.
 */
export const buildUserMessageItem = (m: Message, userId: number, flags: string[]): Item => ({
  ...entityKeys.userMessage(userId, m.id),
  ...(flags.includes('read') ? {} : entityKeys.unreadMessage(userId, m.id)),
  ...(flags.includes('starred') ? entityKeys.starredMessage(userId, m.id) : {}),
  ...entityKeys.userMessageInConversation(userId, m.streamId, m.id),
  ...(flags.some((f) => MENTION_FLAGS.includes(f)) ? entityKeys.mentionedMessage(userId, m.id) : {}),
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

/** The stored item of a channel's topic summary (see entityKeys.topicSummary). */
export const buildTopicSummaryItem = (realmId: number, t: TopicSummary): Item => ({
  ...entityKeys.topicSummary(t.channelId, t.topic),
  realmId,
  ...t,
});

/** The stored item of a user's summary of a topic they received in a channel with protected history (see entityKeys.receivedTopic). */
export const buildReceivedTopicItem = (realmId: number, userId: number, t: TopicSummary): Item => ({
  ...entityKeys.receivedTopic(userId, t.channelId, t.topic),
  realmId,
  userId,
  ...t,
});

/** The stored item of a participant's direct-message conversation, at `maxMessageId`. */
export const buildDmConversationItem = (realmId: number, userId: number, participantIds: number[], maxMessageId: number): Item => {
  const others = [...new Set(participantIds)].filter((id) => id !== userId).sort((a, b) => a - b);
  return { ...entityKeys.dmConversation(userId, others), userId, realmId, userIds: others, maxMessageId };
};

/**
 * Summary items (conversations, topic summaries, received topics) met while writing many messages
 * at once: of each key, the one at the newest message (a seed, an import).
 */
export class NewestSummaries {
  private readonly items = new Map<string, Item>();

  keep(item: Item): void {
    const key = `${item.pk}|${item.sk}`;
    const previous = this.items.get(key);
    if (!previous || (previous.maxMessageId as number) < (item.maxMessageId as number)) this.items.set(key, item);
  }

  values(): Item[] {
    return [...this.items.values()];
  }
}

/** How many user ids one recipients item holds (a number set of 10,000 ids is well under DynamoDB's 400 KB). */
const MESSAGE_RECIPIENTS_PER_ITEM = 10_000;

/** The items of one message's recipients record: a part per MESSAGE_RECIPIENTS_PER_ITEM recipients, and `RCPT#H`. */
export const MAX_RECIPIENT_PARTS = Math.ceil(MAX_ORGANIZATION_USERS / MESSAGE_RECIPIENTS_PER_ITEM) + 1;

/**
 * The items recording who received a message (see entityKeys.messageRecipients): its recipients'
 * ids as number sets, MESSAGE_RECIPIENTS_PER_ITEM per item. None for a message without recipients.
 */
export const buildMessageRecipientsItems = (m: Pick<Message, 'realmId' | 'id'>, userIds: number[]): Item[] => {
  const ids = [...new Set(userIds)].sort((a, b) => a - b);
  const items: Item[] = [];
  for (let i = 0; i < ids.length; i += MESSAGE_RECIPIENTS_PER_ITEM) {
    items.push({
      ...entityKeys.messageRecipients(m.realmId, m.id, pad(i / MESSAGE_RECIPIENTS_PER_ITEM, 4)),
      userIds: new Set(ids.slice(i, i + MESSAGE_RECIPIENTS_PER_ITEM)),
    });
  }
  return items;
};

/**
 * Records that a user holds a row of a message they did not receive (a historical row): added to
 * the message's `RCPT#H` set before the row is written, so a crash between the two leaves an id
 * without a row (harmless), never a row that a delete cannot find.
 */
export const recordRowHolder = (realmId: number, messageId: number, userId: number): Promise<void> =>
  recordRowHolders(realmId, messageId, [userId]);

/** recordRowHolder for several users at once (one UpdateItem): the subscribers a move into a channel with protected history gives rows. */
export const recordRowHolders = async (realmId: number, messageId: number, userIds: number[]): Promise<void> => {
  if (userIds.length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.messageRecipients(realmId, messageId, 'H'),
      UpdateExpression: 'ADD userIds :id',
      ExpressionAttributeValues: { ':id': new Set(userIds) },
    }),
  );
};

/**
 * A message's recipients record: `sent`, everyone the send delivered it to (undefined for a message
 * stored before the record existed), and `later`, the users who got a row of it since (`RCPT#H`),
 * each ascending. One consistent Query of the message's partition (its RCPT# items only).
 */
export const getRowHolderRecord = async (realmId: number, messageId: number): Promise<{ sent: number[] | undefined; later: number[] }> => {
  const k = entityKeys.recipientsOfMessage(realmId, messageId);
  const laterSk = entityKeys.messageRecipients(realmId, messageId, 'H').sk;
  const items = await queryPrefix('main', k.pk, k.skPrefix, { consistent: true, max: MAX_RECIPIENT_PARTS });
  const ids = (parts: Item[]) => {
    const out = new Set<number>();
    for (const item of parts) for (const id of (item.userIds as Set<number> | undefined) ?? []) out.add(Number(id));
    return [...out].sort((x, y) => x - y);
  };
  const sentParts = items.filter((item) => item.sk !== laterSk);
  return { sent: sentParts.length > 0 ? ids(sentParts) : undefined, later: ids(items.filter((item) => item.sk === laterSk)) };
};

/** A new message id of the organization (its own counter: ids rise within an organization). */
export const allocateMessageId = (realmId: number): Promise<number> => allocateIds(`message#${realmId}`);

/** How long a channel's `lastMessageAt` may lag before a send refreshes it (register needs days). */
export const LAST_MESSAGE_AT_REFRESH_SECONDS = 3600;

/** Raises an item's numeric attribute to `value` with SET fields; a newer value already there wins. */
const raiseItem = (key: { pk: string; sk: string }, attribute: string, value: number, fields: Item): Promise<boolean> => {
  const entries = Object.entries(fields);
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: key,
      UpdateExpression: `SET ${[`#a = :v`, ...entries.map((_, i) => `#f${i} = :f${i}`)].join(', ')}`,
      ConditionExpression: 'attribute_not_exists(#a) OR #a < :v',
      ExpressionAttributeNames: { '#a': attribute, ...Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])) },
      ExpressionAttributeValues: { ':v': value, ...Object.fromEntries(entries.map(([, v], i) => [`:f${i}`, v])) },
    }),
  );
};

/** The channel updates a send makes: `firstMessageId` once, `lastMessageAt` at most once an hour. */
const updateChannelCounters = async (channel: Channel, m: Message): Promise<void> => {
  const key = entityKeys.channel(channel.realmId, channel.id);
  const writes: Promise<boolean>[] = [];
  if (channel.firstMessageId === null || channel.firstMessageId === undefined) {
    writes.push(
      sendConditional(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: key,
          UpdateExpression: 'SET firstMessageId = :mid',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(firstMessageId) OR firstMessageId = :null OR firstMessageId > :mid)',
          ExpressionAttributeValues: { ':mid': m.id, ':null': null },
        }),
      ),
    );
  }
  if (
    channel.lastMessageAt === null ||
    channel.lastMessageAt === undefined ||
    channel.lastMessageAt < m.dateSent - LAST_MESSAGE_AT_REFRESH_SECONDS
  ) {
    writes.push(
      sendConditional(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: key,
          UpdateExpression: 'SET lastMessageAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(lastMessageAt) OR lastMessageAt = :null OR lastMessageAt < :at)',
          ExpressionAttributeValues: { ':at': m.dateSent, ':null': null },
        }),
      ),
    );
  }
  await Promise.all(writes);
};

/**
 * How many row batches (of 25) a send writes at once: 1,000 recipients are one round of 40. On
 * DynamoDB Local (2 loaded cores) 1,000 rows took a median 1.76 s at 16, 1.20 s at 32 and 1.17 s at
 * 64 (10,000: 14.5, 10.8, 9.4 s); it stays under the client's 50 sockets.
 */
const ROW_BATCH_CONCURRENCY = 40;
/** Conditional writes per recipient (received-topic summaries: a condition cannot be batched) at once. */
const SUMMARY_CONCURRENCY = 16;

/**
 * Writes a new message (its id from allocateMessageId): the message item (never over an existing
 * one), the recipients record (every recipient's id, for edits and deletes to find every row
 * later, and for a fan-out job to know whom to write), the recipients' rows (writeMessageRows;
 * with `onlyRowsOf`, only those users' rows: the rest are left to a fan-out job) and the
 * conversation summaries: each DM participant's conversation item, or the channel's counters
 * (`channel` as the sender read it) and the topic summary. Summaries only ever rise, so concurrent
 * sends keep the newest. All in one round of requests. With `sentLocalId` (the sending client's
 * queue_id and local_id), the message item is first written with the claim of that identity, in one
 * transaction; when a send of the same user with it stored a message in the last
 * SENT_LOCAL_ID_SECONDS, nothing is written and `duplicateOf` is that message's id.
 */
export const writeNewMessage = async (
  m: Message,
  recipients: MessageRecipient[],
  channel?: Channel,
  opts: { onlyRowsOf?: number[]; sentLocalId?: SentLocalId } = {},
): Promise<{ duplicateOf?: number }> => {
  // An identity too long for a key cannot have been claimed: such a send is stored unclaimed.
  const claimed =
    opts.sentLocalId !== undefined &&
    lookupKey(() => entityKeys.sentLocalId(m.senderId, opts.sentLocalId!.queueId, opts.sentLocalId!.localId)) !== undefined;
  if (claimed) {
    const duplicateOf = await writeMessageItemOnce(m, opts.sentLocalId!);
    if (duplicateOf !== undefined) return { duplicateOf };
  }
  const rowsNow = opts.onlyRowsOf ? recipients.filter((r) => opts.onlyRowsOf!.includes(r.userId)) : recipients;
  const writes: Promise<unknown>[] = [
    claimed ? Promise.resolve() : putNewItem('main', buildMessageItem(m)),
    // The recipients record in the rows' batches: a small channel's message is one batch.
    writeMessageRows(
      m,
      rowsNow,
      channel,
      buildMessageRecipientsItems(
        m,
        recipients.map((r) => r.userId),
      ),
    ),
  ];
  if (m.streamId === null) {
    for (const userId of m.dmUserIds) {
      const item = buildDmConversationItem(m.realmId, userId, m.dmUserIds, m.id);
      const { pk, sk, maxMessageId, ...fields } = item;
      writes.push(raiseItem({ pk: pk as string, sk: sk as string }, 'maxMessageId', maxMessageId as number, fields));
    }
  } else {
    const item = buildTopicSummaryItem(m.realmId, { channelId: m.streamId, topic: m.topic, maxMessageId: m.id });
    const { pk, sk, maxMessageId, ...fields } = item;
    writes.push(raiseItem({ pk: pk as string, sk: sk as string }, 'maxMessageId', maxMessageId as number, fields));
    if (channel) writes.push(updateChannelCounters(channel, m));
  }
  await Promise.all(writes);
  return {};
};

/**
 * How long a send's client identity (its queue_id and local_id, as the sending client gives them)
 * keeps naming the message it stored: a send with the same identity by the same user within it
 * (a client retrying a send whose answer it did not get) stores nothing and answers that message.
 */
export const SENT_LOCAL_ID_SECONDS = 300;

export type SentLocalId = { queueId: string; localId: string };

/** Transaction attempts a send makes while another send with its identity writes the same claim. */
const CLAIM_CONFLICT_ATTEMPTS = 10;

/**
 * Writes the message item together with the claim of its send's client identity, in one
 * transaction (so a claim always names a stored message): undefined when both were written, else
 * the id of the message that an earlier send with that identity stored within
 * SENT_LOCAL_ID_SECONDS (an older claim is taken over).
 */
const writeMessageItemOnce = async (m: Message, sent: SentLocalId): Promise<number | undefined> => {
  const key = entityKeys.sentLocalId(m.senderId, sent.queueId, sent.localId);
  for (let attempt = 1; ; attempt += 1) {
    const loss = await sendTransaction([
      { Put: { TableName: tableName('main'), Item: buildMessageItem(m), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName('main'),
          Item: { ...key, messageId: m.id, expiresAt: m.dateSent + SENT_LOCAL_ID_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': m.dateSent },
        },
      },
    ]);
    if (!loss) return undefined;
    if (loss.reasons[0] === 'ConditionalCheckFailed') throw new Error(`message ${m.id} of realm ${m.realmId} already exists`);
    if (loss.lost === 'condition') {
      const claim = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }));
      if (claim.Item && Number(claim.Item.expiresAt) >= m.dateSent) return Number(claim.Item.messageId);
    }
    // A concurrent send of the same identity is writing its claim (or the claim expired meanwhile): try again.
    if (attempt >= CLAIM_CONFLICT_ATTEMPTS) throw new Error(`could not claim the send identity of message ${m.id}`);
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
  }
};

/**
 * Writes recipients' rows of a message (with `alsoPut`, other items of the message, in the same
 * batches), and in a channel with protected history each one's own summary of the topic
 * (entityKeys.receivedTopic: such a recipient sees only the topics it received). Idempotent: the
 * same rows and summaries again change nothing.
 */
export const writeMessageRows = async (
  m: Message,
  recipients: MessageRecipient[],
  channel?: Channel,
  alsoPut: Item[] = [],
): Promise<void> => {
  const rows = [...alsoPut, ...recipients.map((r) => buildUserMessageItem(m, r.userId, r.flags))];
  const summaries =
    channel && !channel.historyPublicToSubscribers
      ? mapLimited(recipients, SUMMARY_CONCURRENCY, (r) => {
          const {
            pk: rpk,
            sk: rsk,
            maxMessageId: rmax,
            ...rfields
          } = buildReceivedTopicItem(m.realmId, r.userId, { channelId: m.streamId!, topic: m.topic, maxMessageId: m.id });
          return raiseItem({ pk: rpk as string, sk: rsk as string }, 'maxMessageId', rmax as number, rfields);
        })
      : undefined;
  await Promise.all([batchPut('main', rows, { concurrency: ROW_BATCH_CONCURRENCY }), summaries]);
};

/**
 * Raises users' own summaries of a topic of a channel with protected history to `maxMessageId`
 * (messages moved into it: each user sees only the topics it holds rows of).
 */
export const raiseReceivedTopics = async (
  realmId: number,
  userIds: number[],
  t: { channelId: number; topic: string; maxMessageId: number },
): Promise<void> => {
  await mapLimited(userIds, SUMMARY_CONCURRENCY, (userId) => {
    const { pk, sk, maxMessageId, ...fields } = buildReceivedTopicItem(realmId, userId, t);
    return raiseItem({ pk: pk as string, sk: sk as string }, 'maxMessageId', maxMessageId as number, fields);
  });
};

/** Message items by id (one BatchGetItem per 100), in the order of `messageIds`; missing ones left out. */
export const getMessagesByIds = async (realmId: number, messageIds: number[]): Promise<Message[]> => {
  const ids = [...new Set(messageIds)];
  const items = await batchGet(
    'main',
    ids.map((id) => entityKeys.message(realmId, id)),
  );
  const byId = new Map(items.map((item) => [Number(item.id), stripKeys(item) as Message]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};

/** A user's rows of messages by id (one BatchGetItem per 100), in the order of `messageIds`; messages the user did not receive are left out. */
export const getUserMessagesByIds = async (userId: number, messageIds: number[]): Promise<UserMessage[]> => {
  const ids = [...new Set(messageIds)];
  const items = await batchGet(
    'main',
    ids.map((id) => entityKeys.userMessage(userId, id)),
  );
  const byId = new Map(items.map((item) => [Number(item.messageId), stripKeys(item) as Item as UserMessage]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};

/** The rows of one message held by any of `userIds` (one BatchGetItem per 100 users), ascending by user id; users without a row are left out. */
export const getRowsOfMessage = async (messageId: number, userIds: number[]): Promise<UserMessage[]> => {
  const items = await batchGet(
    'main',
    [...new Set(userIds)].map((id) => entityKeys.userMessage(id, messageId)),
  );
  return items.map((item) => stripKeys(item) as Item as UserMessage).sort((a, b) => a.userId - b.userId);
};
