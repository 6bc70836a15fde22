// The read queries of message fetches (GET /messages, GET /messages/{id}, flags by narrow): one
// partition per narrow source (docs/data-model.md, "What each narrow reads"), read in id order from
// an anchor, a page at a time. Callers match every narrow term on what comes back, so a partition
// only has to contain the narrow.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import type { Item } from './common';
import { entityKeys, lookupKey, pad } from './keys';

/**
 * A partition to read: the messages of a conversation (message items) or a user's own rows
 * (per-recipient rows, which carry the facts a narrow matches on and the flags). `pk` undefined:
 * a partition no key can name (a topic too long for one), which holds nothing.
 */
export type MessagePartition = { index: 'base' | 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4'; pk: string | undefined; holds: 'messages' | 'rows' };

/** The partitions of the layout, by narrow source. */
export const messagePartitions = {
  channel: (channelId: number): MessagePartition => ({
    index: 'gsi1',
    pk: entityKeys.messagesOfChannel(channelId).gsi1pk,
    holds: 'messages',
  }),
  topic: (channelId: number, topic: string): MessagePartition => ({
    index: 'gsi2',
    pk: lookupKey(() => entityKeys.messagesOfTopic(channelId, topic))?.gsi2pk,
    holds: 'messages',
  }),
  /** `userIds`: every participant. */
  dm: (realmId: number, userIds: number[]): MessagePartition => ({
    index: 'gsi1',
    pk: entityKeys.messagesOfDmConversation(realmId, userIds).gsi1pk,
    holds: 'messages',
  }),
  rowsOfUser: (userId: number): MessagePartition => ({ index: 'base', pk: entityKeys.userMessagesOfUser(userId).pk, holds: 'rows' }),
  unreadRows: (userId: number): MessagePartition => ({ index: 'gsi1', pk: entityKeys.unreadOfUser(userId).gsi1pk, holds: 'rows' }),
  starredRows: (userId: number): MessagePartition => ({ index: 'gsi2', pk: entityKeys.starredOfUser(userId).gsi2pk, holds: 'rows' }),
  mentionedRows: (userId: number): MessagePartition => ({ index: 'gsi4', pk: entityKeys.mentionedOfUser(userId).gsi4pk, holds: 'rows' }),
  channelRows: (userId: number, channelId: number): MessagePartition => ({
    index: 'gsi3',
    pk: entityKeys.userMessagesOfConversation(userId, channelId).gsi3pk,
    holds: 'rows',
  }),
  dmRows: (userId: number): MessagePartition => ({
    index: 'gsi3',
    pk: entityKeys.userMessagesOfConversation(userId, null).gsi3pk,
    holds: 'rows',
  }),
};

export type PartitionCursor = Record<string, unknown> | undefined;

/**
 * One page of a partition: ids older than `from` (newest first) or newer (oldest first),
 * `inclusive` of `from` itself, at most `limit` items. `cursor` continues a previous page.
 */
export const queryPartitionPage = async (
  partition: MessagePartition,
  opts: { direction: 'older' | 'newer'; from: number; inclusive: boolean; limit: number; cursor?: PartitionCursor },
): Promise<{ items: Item[]; cursor: PartitionCursor }> => {
  if (partition.pk === undefined) return { items: [], cursor: undefined };
  const base = partition.index === 'base';
  const skName = base ? 'sk' : `${partition.index}sk`;
  const pkName = base ? 'pk' : `${partition.index}pk`;
  const bound = base ? entityKeys.userMessage(0, opts.from).sk : pad(opts.from);
  const op = opts.direction === 'older' ? (opts.inclusive ? '<=' : '<') : opts.inclusive ? '>=' : '>';
  // The base table's user partition holds other items too: keep the range within UM#.
  const condition =
    base && opts.direction === 'older'
      ? '#pk = :pk AND #sk BETWEEN :low AND :bound'
      : base
        ? '#pk = :pk AND #sk BETWEEN :bound AND :high'
        : `#pk = :pk AND #sk ${op} :bound`;
  const values: Record<string, unknown> = { ':pk': partition.pk, ':bound': bound };
  if (base && opts.direction === 'older') values[':low'] = entityKeys.userMessagesOfUser(0).skPrefix;
  if (base && opts.direction === 'newer') values[':high'] = `${entityKeys.userMessagesOfUser(0).skPrefix}~`;
  const input: QueryCommandInput = {
    TableName: tableName('main'),
    ...(base ? {} : { IndexName: partition.index }),
    KeyConditionExpression: condition,
    ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
    ExpressionAttributeValues: values,
    ScanIndexForward: opts.direction === 'newer',
    Limit: opts.limit,
    ExclusiveStartKey: opts.cursor,
  };
  const out = await documentClient().send(new QueryCommand(input));
  let items = (out.Items ?? []) as Item[];
  // BETWEEN is inclusive at both ends: drop the anchor row itself when it is excluded.
  if (base && !opts.inclusive) items = items.filter((item) => item.sk !== bound);
  return { items, cursor: out.LastEvaluatedKey };
};
