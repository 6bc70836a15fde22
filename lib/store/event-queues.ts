// Event queues: one item per queue holding its descriptor (owner, filters), its cursors into the
// organization's and the user's streams, and the refs of the events it holds, each with its
// queue-local id. Every change is conditional on the item's version, so two polls of one queue
// cannot interleave their updates. The item carries the TTL attribute; reads treat an idle queue
// as gone themselves, since DynamoDB removes expired items only eventually.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { QueueDescriptor } from '../events/types';
import { documentClient, tableName } from './client';
import { eventKeys } from './keys';

/** An event held by a queue: a stream event, or a heartbeat the queue made itself. */
export type QueueRef = { id: number; stream: string; seq: number } | { id: number; heartbeat: true };

export type QueueState = QueueDescriptor & {
  cursors: Record<string, number>;
  nextId: number;
  ackedThrough: number;
  refs: QueueRef[];
  lastConnMs: number;
  version: number;
};

/** Seconds after a queue's expiry at which DynamoDB may garbage-collect it. */
const TTL_SLACK_SECONDS = 3600;

const expiresAt = (state: Pick<QueueState, 'lastConnMs' | 'timeoutSecs'>): number =>
  Math.floor(state.lastConnMs / 1000) + state.timeoutSecs + TTL_SLACK_SECONDS;

export const isConditionFailure = (error: unknown): boolean => (error as Error).name === 'ConditionalCheckFailedException';

export const create = async (state: QueueState): Promise<void> => {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('events'),
      Item: { ...eventKeys.queue(state.queueId), ...state, expiresAt: expiresAt(state) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** The queue item, read consistently (undefined if it does not exist). */
export const get = async (queueId: string): Promise<QueueState | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('events'), Key: eventKeys.queue(queueId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _e, ...state } = out.Item;
  return state as QueueState;
};

type Changes = Partial<Pick<QueueState, 'cursors' | 'nextId' | 'ackedThrough' | 'refs' | 'lastConnMs'>>;

/** Applies changes if the queue is still at `version`; false if another request changed it first. */
export const update = async (current: QueueState, changes: Changes): Promise<boolean> => {
  const next = { ...changes, version: current.version + 1, expiresAt: expiresAt({ ...current, ...changes }) };
  const names = Object.keys(next);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName('events'),
        Key: eventKeys.queue(current.queueId),
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'version = :version',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: {
          ':version': current.version,
          ...Object.fromEntries(names.map((n, i) => [`:v${i}`, (next as Record<string, unknown>)[n]])),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** Deletes a queue owned by `userId`; false if there was no such queue. */
export const remove = async (queueId: string, userId: number): Promise<boolean> => {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName('events'),
        Key: eventKeys.queue(queueId),
        ConditionExpression: 'userId = :userId',
        ExpressionAttributeValues: { ':userId': userId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
