// Event queues: one item per queue holding its descriptor (owner, filters), its cursors into the
// organization's and the user's streams, and the refs of the events it holds, each with its
// queue-local id. Every change is conditional on the item's version, so two polls of one queue
// cannot interleave their updates. The item carries the TTL attribute; reads treat an idle queue
// as gone themselves, since DynamoDB removes expired items only eventually.
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { QueueDescriptor } from '../models/event';
import { documentClient, tableName } from './client';
import { batchDelete, batchGet, buildSetUpdate, putNewItem, queryPrefix, sendConditional } from './common';
import { eventKeys, lookupKey } from './keys';

/** An event held by a queue: a stream event, or a heartbeat the queue made itself. */
export type QueueRef = { id: number; stream: string; seq: number } | { id: number; heartbeat: true };

export type QueueState = QueueDescriptor & {
  cursors: Record<string, number>;
  nextId: number;
  ackedThrough: number;
  refs: QueueRef[];
  lastConnMs: number;
  version: number;
  /**
   * The rings of the owner's sub-bell on the queue's shard head (event-streams.ts) through which
   * the owner's user stream was read: a poll that sees no more rings than this need not read it.
   * Absent until a poll first knows it.
   */
  bellSeen?: number;
};

/** Seconds after a queue's expiry at which DynamoDB may garbage-collect it. */
const TTL_SLACK_SECONDS = 3600;

const expiresAt = (state: Pick<QueueState, 'lastConnMs' | 'timeoutSecs'>): number =>
  Math.floor(state.lastConnMs / 1000) + state.timeoutSecs + TTL_SLACK_SECONDS;

/**
 * How long a user's record of a queue outlives the queue's first expiry: a queue polled for longer
 * than that is no longer found by removeQueuesOfUser (it still ends once its owner stops polling,
 * which a deactivated owner can no longer do).
 */
const QUEUE_RECORD_KEPT_SECONDS = 24 * 60 * 60;

/** Queue deletions removeQueuesOfUser sends at once. */
const REMOVALS_AT_ONCE = 25;

/** The most queue records of one user that removeQueuesOfUser reads (those registered within a day). */
const MAX_QUEUE_RECORDS_OF_USER = 10_000;

/** Writes a new queue, after its owner's record of it (a crash between them leaves only a record of nothing). */
export const create = async (state: QueueState): Promise<void> => {
  await putNewItem('events', {
    ...eventKeys.queueOfUser(state.userId, state.queueId),
    queueId: state.queueId,
    expiresAt: expiresAt(state) + QUEUE_RECORD_KEPT_SECONDS,
  });
  await putNewItem('events', { ...eventKeys.queue(state.queueId), ...state, expiresAt: expiresAt(state) });
};

/**
 * Deletes every queue of a user that their records name (those registered within
 * QUEUE_RECORD_KEPT_SECONDS of their first expiry), and the records. Returns how many queues
 * were deleted.
 */
export const removeQueuesOfUser = async (userId: number): Promise<number> => {
  const k = eventKeys.queuesOfUser(userId);
  const records = await queryPrefix('events', k.pk, k.skPrefix, { max: MAX_QUEUE_RECORDS_OF_USER, overflow: 'truncate', consistent: true });
  const queueIds = records.map((r) => String(r.queueId));
  let removed = 0;
  for (let i = 0; i < queueIds.length; i += REMOVALS_AT_ONCE) {
    const outcomes = await Promise.all(queueIds.slice(i, i + REMOVALS_AT_ONCE).map((queueId) => remove(queueId, userId)));
    removed += outcomes.filter(Boolean).length;
  }
  // The records of queues that were gone already (remove deletes the others' own).
  await batchDelete(
    'events',
    queueIds.map((queueId) => eventKeys.queueOfUser(userId, queueId)),
  );
  return removed;
};

/** The most of a user's queue records hasLiveQueue looks at. */
const LIVE_QUEUE_RECORDS = 100;

/**
 * Whether a user has an event queue that has not expired (polled within its timeout): a client
 * that is connected, or was moments ago (upstream's receiver_is_off_zulip, negated). Reads the
 * user's queue records and those queues (up to LIVE_QUEUE_RECORDS of them).
 */
export const hasLiveQueue = async (userId: number, nowMs: number): Promise<boolean> => {
  const k = eventKeys.queuesOfUser(userId);
  const records = await queryPrefix('events', k.pk, k.skPrefix, { max: LIVE_QUEUE_RECORDS, overflow: 'truncate' });
  if (records.length === 0) return false;
  const queues = await batchGet(
    'events',
    records.map((r) => eventKeys.queue(String(r.queueId))),
  );
  return queues.some((q) => Number(q.lastConnMs) + Number(q.timeoutSecs) * 1000 > nowMs);
};

/**
 * The queue item (undefined if it does not exist), read consistently unless `consistent` is false:
 * half a read unit, for a poll that checks what it read (its writes are conditional on `version`).
 */
export const get = async (queueId: string, consistent = true): Promise<QueueState | undefined> => {
  const Key = lookupKey(() => eventKeys.queue(queueId));
  if (!Key) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('events'), Key, ConsistentRead: consistent }));
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _e, ...state } = out.Item;
  return state as QueueState;
};

type Changes = Partial<Pick<QueueState, 'cursors' | 'nextId' | 'ackedThrough' | 'refs' | 'lastConnMs' | 'bellSeen'>>;

/** Applies changes if the queue is still at `version`; false if another request changed it first. */
export const update = async (current: QueueState, changes: Changes): Promise<boolean> => {
  const set = buildSetUpdate({ ...changes, version: current.version + 1, expiresAt: expiresAt({ ...current, ...changes }) });
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: eventKeys.queue(current.queueId),
      ...set,
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':version': current.version },
    }),
  );
};

/** Deletes a queue owned by `userId`, then its owner's record of it; false if there was no such queue. */
export const remove = async (queueId: string, userId: number): Promise<boolean> => {
  const Key = lookupKey(() => eventKeys.queue(queueId));
  if (!Key) return false;
  const removed = await sendConditional(
    new DeleteCommand({
      TableName: tableName('events'),
      Key,
      ConditionExpression: 'userId = :userId',
      ExpressionAttributeValues: { ':userId': userId },
    }),
  );
  if (removed)
    await documentClient().send(new DeleteCommand({ TableName: tableName('events'), Key: eventKeys.queueOfUser(userId, queueId) }));
  return removed;
};
