// Submessages after a message's widget (poll votes, new options, checked tasks): one item each in
// the message's own partition (`SUBMSG#<id>`), so that they never grow the message item toward
// DynamoDB's 400 KB. The message item counts them (`submessageCount`, `submessageBytes`), which
// bounds the read of a message's submessages and tells fetches which messages have any. The
// widget itself is on the message item (written with it).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mapLimited } from '../concurrency';
import type { Message } from '../models/message';
import { MAX_SUBMESSAGE_BYTES_PER_MESSAGE, MAX_SUBMESSAGES_PER_MESSAGE, type StoredSubmessage } from '../models/submessage';
import { documentClient, tableName } from './client';
import { allocateIds, queryPrefix, sendTransaction, stripKeys } from './common';
import { entityKeys } from './keys';

/** The organization's submessage ids (a widget's and every later one's), rising within it. */
export const allocateSubmessageId = (realmId: number): Promise<number> => allocateIds(`submessage#${realmId}`);

/** What a submessage counts against its message's MAX_SUBMESSAGE_BYTES_PER_MESSAGE. */
export const submessageSize = (s: Pick<StoredSubmessage, 'msgType' | 'content'>): number =>
  Buffer.byteLength(s.content, 'utf8') + Buffer.byteLength(s.msgType, 'utf8');

export type AddSubmessageOutcome = 'added' | 'missing' | 'not-started' | 'full';

/**
 * Adds a submessage to a message, in one transaction with the message's counters: only while the
 * message exists, while it has fewer than MAX_SUBMESSAGES_PER_MESSAGE and the new one fits in
 * MAX_SUBMESSAGE_BYTES_PER_MESSAGE, and, unless `bySender` (the message's sender adds it, which
 * opens the message to everyone's submessages), only once its sender started (a widget, or an
 * earlier submessage of theirs). A refusal says which condition failed ('missing', 'not-started',
 * 'full'), read back consistently.
 */
export const addSubmessage = async (
  realmId: number,
  messageId: number,
  sub: StoredSubmessage,
  opts: { bySender: boolean },
): Promise<AddSubmessageOutcome> => {
  const size = submessageSize(sub);
  const started = opts.bySender ? '' : ' AND (attribute_exists(widget) OR senderSubmessaged = :t)';
  for (let attempt = 0; ; attempt += 1) {
    const loss = await sendTransaction([
      {
        Update: {
          TableName: tableName('main'),
          Key: entityKeys.message(realmId, messageId),
          UpdateExpression: `ADD submessageCount :one, submessageBytes :size${opts.bySender ? ' SET senderSubmessaged = :t' : ''}`,
          ConditionExpression:
            'attribute_exists(pk)' +
            started +
            ' AND (attribute_not_exists(submessageCount) OR submessageCount < :maxCount)' +
            ' AND (attribute_not_exists(submessageBytes) OR submessageBytes <= :maxBefore)',
          ExpressionAttributeValues: {
            ':one': 1,
            ':size': size,
            ':t': true,
            ':maxCount': MAX_SUBMESSAGES_PER_MESSAGE,
            ':maxBefore': MAX_SUBMESSAGE_BYTES_PER_MESSAGE - size,
          },
        },
      },
      {
        Put: {
          TableName: tableName('main'),
          Item: { ...entityKeys.submessage(realmId, messageId, sub.id), ...sub },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    if (!loss) return 'added';
    if (loss.lost === 'conflict' && attempt < 5) continue;
    const out = await documentClient().send(
      new GetCommand({ TableName: tableName('main'), Key: entityKeys.message(realmId, messageId), ConsistentRead: true }),
    );
    const message = out.Item as Message | undefined;
    if (!message) return 'missing';
    if (!opts.bySender && message.widget === undefined && message.senderSubmessaged !== true) return 'not-started';
    if ((message.submessageCount ?? 0) >= MAX_SUBMESSAGES_PER_MESSAGE) return 'full';
    if ((message.submessageBytes ?? 0) > MAX_SUBMESSAGE_BYTES_PER_MESSAGE - size) return 'full';
    if (attempt >= 5) throw new Error(`submessage of message ${messageId} kept conflicting`);
  }
};

/** The submessages after the widget of one message, by id (at most MAX_SUBMESSAGES_PER_MESSAGE). */
export const listSubmessagesOfMessage = async (realmId: number, messageId: number): Promise<StoredSubmessage[]> => {
  const { pk, skPrefix } = entityKeys.submessagesOfMessage(realmId, messageId);
  const items = await queryPrefix('main', pk, skPrefix, { max: MAX_SUBMESSAGES_PER_MESSAGE, overflow: 'truncate' });
  return items.map((item) => stripKeys(item) as StoredSubmessage);
};

/** How many messages' submessages are read at once. */
const SUBMESSAGE_READ_CONCURRENCY = 10;

/**
 * The submessages after the widget of each message that has any (`submessageCount`), by message
 * id: one query per such message; messages without any cost nothing.
 */
export const listSubmessagesOfMessages = async (
  messages: Pick<Message, 'realmId' | 'id' | 'submessageCount'>[],
): Promise<Map<number, StoredSubmessage[]>> => {
  const withAny = messages.filter((m) => (m.submessageCount ?? 0) > 0);
  const lists = await mapLimited(withAny, SUBMESSAGE_READ_CONCURRENCY, (m) => listSubmessagesOfMessage(m.realmId, m.id));
  return new Map(withAny.map((m, i) => [m.id, lists[i]]));
};

/** The keys of a message's submessage items, for deleting them with the message. */
export const listSubmessageKeysOfMessage = async (realmId: number, messageId: number): Promise<{ pk: string; sk: string }[]> => {
  const { pk, skPrefix } = entityKeys.submessagesOfMessage(realmId, messageId);
  const items = await queryPrefix('main', pk, skPrefix, { max: MAX_SUBMESSAGES_PER_MESSAGE, overflow: 'truncate', consistent: true });
  return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
};
