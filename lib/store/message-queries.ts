// The read queries of message fetches (GET /messages, GET /messages/{id}, flags by narrow): one
// partition per narrow source (docs/data-model.md, "What each narrow reads"), read in id order from
// an anchor, a page at a time. Callers match every narrow term on what comes back, so a partition
// only has to contain the narrow.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Message, UserMessage } from '../models/message';
import { documentClient, tableName } from './client';
import { batchGet, stripKeys, type Item } from './common';
import { entityKeys, pad } from './keys';

/**
 * A partition to read: the messages of a conversation (message items) or a user's own rows
 * (per-recipient rows, which carry the facts a narrow matches on and the flags).
 */
export type MessagePartition = { index: 'base' | 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4'; pk: string; holds: 'messages' | 'rows' };

/** The partitions of the layout, by narrow source. */
export const messagePartitions = {
  channel: (channelId: number): MessagePartition => ({ index: 'gsi1', pk: `CHANNELMSGS#${channelId}`, holds: 'messages' }),
  topic: (channelId: number, topic: string): MessagePartition => ({ index: 'gsi2', pk: `TOPICMSGS#${channelId}#${topic.toLowerCase()}`, holds: 'messages' }),
  /** `userIds`: every participant, ascending. */
  dm: (realmId: number, userIds: number[]): MessagePartition => ({ index: 'gsi1', pk: `DMMSGS#${realmId}#${userIds.join(',')}`, holds: 'messages' }),
  rowsOfUser: (userId: number): MessagePartition => ({ index: 'base', pk: `USER#${userId}`, holds: 'rows' }),
  unreadRows: (userId: number): MessagePartition => ({ index: 'gsi1', pk: `UNREAD#${userId}`, holds: 'rows' }),
  starredRows: (userId: number): MessagePartition => ({ index: 'gsi2', pk: `STARRED#${userId}`, holds: 'rows' }),
  mentionedRows: (userId: number): MessagePartition => ({ index: 'gsi4', pk: `MENTIONED#${userId}`, holds: 'rows' }),
  channelRows: (userId: number, channelId: number): MessagePartition => ({ index: 'gsi3', pk: `UMCONV#${userId}#C${channelId}`, holds: 'rows' }),
  dmRows: (userId: number): MessagePartition => ({ index: 'gsi3', pk: `UMCONV#${userId}#D`, holds: 'rows' }),
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
  const base = partition.index === 'base';
  const skName = base ? 'sk' : `${partition.index}sk`;
  const pkName = base ? 'pk' : `${partition.index}pk`;
  const bound = base ? `UM#${pad(opts.from)}` : pad(opts.from);
  const op = opts.direction === 'older' ? (opts.inclusive ? '<=' : '<') : opts.inclusive ? '>=' : '>';
  // The base table's user partition holds other items too: keep the range within UM#.
  const condition =
    base && opts.direction === 'older'
      ? '#pk = :pk AND #sk BETWEEN :low AND :bound'
      : base
        ? '#pk = :pk AND #sk BETWEEN :bound AND :high'
        : `#pk = :pk AND #sk ${op} :bound`;
  const values: Record<string, unknown> = { ':pk': partition.pk, ':bound': bound };
  if (base && opts.direction === 'older') values[':low'] = 'UM#';
  if (base && opts.direction === 'newer') values[':high'] = 'UM#~';
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

/** Message items by id (one BatchGetItem per 100), in the order of `messageIds`; missing ones left out. */
export const getMessagesByIds = async (realmId: number, messageIds: number[]): Promise<Message[]> => {
  const ids = [...new Set(messageIds)];
  const items = await batchGet('main', ids.map((id) => entityKeys.message(realmId, id)));
  const byId = new Map(items.map((item) => [Number(item.id), stripKeys(item) as Message]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};

/** A user's rows of messages by id (one BatchGetItem per 100); messages the user did not receive are left out. */
export const getUserMessagesByIds = async (userId: number, messageIds: number[]): Promise<UserMessage[]> => {
  const ids = [...new Set(messageIds)];
  const items = await batchGet('main', ids.map((id) => entityKeys.userMessage(userId, id)));
  const byId = new Map(items.map((item) => [Number(item.messageId), stripKeys(item) as Item as UserMessage]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
};
