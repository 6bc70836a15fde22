// Users' visibility policies for topics: one item per user, channel and lowercased topic, in the
// user's partition. Every change is conditional on the policy it was decided from, so that of two
// concurrent changes of one topic the second re-reads instead of overwriting blindly.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredVisibilityPolicy, UserTopic } from '../models/user-topic';
import { documentClient, tableName } from './client';
import { queryAll, queryPrefix, sendConditional, stripKeys, type Item } from './common';
import { entityKeys, lookupKey } from './keys';
import { MAX_ORGANIZATION_USERS, MAX_USER_OBJECTS } from './limits';

const toUserTopic = (item: Item): UserTopic => stripKeys(item) as UserTopic;

/** The stored item of a policy: in its user's partition, and among its topic's policies (gsi1). */
export const buildUserTopicItem = (t: UserTopic): Item => ({
  ...entityKeys.userTopic(t.userId, t.channelId, t.topic),
  ...entityKeys.topicPolicy(t.channelId, t.topic, t.userId),
  ...t,
});

/**
 * Every user's policy for a topic (any spelling of it), from the topic's index (eventually
 * consistent), at most one per user of the organization.
 */
export const listPoliciesOfTopic = async (channelId: number, topic: string): Promise<UserTopic[]> => {
  const key = lookupKey(() => entityKeys.policiesOfTopic(channelId, topic));
  if (!key) return [];
  const items = await queryAll(
    {
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': key.gsi1pk },
    },
    { max: MAX_ORGANIZATION_USERS },
  );
  return items.map(toUserTopic);
};

/** A user's policy for a topic (any spelling of it), or undefined when none is set. */
export const getUserTopic = async (
  userId: number,
  channelId: number,
  topic: string,
  opts: { consistent?: boolean } = {},
): Promise<UserTopic | undefined> => {
  const Key = lookupKey(() => entityKeys.userTopic(userId, channelId, topic));
  if (!Key) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key, ConsistentRead: opts.consistent ?? false }));
  return out.Item ? toUserTopic(out.Item) : undefined;
};

/** Every policy of a user (one query of the user's partition), in channel id then topic order. */
export const listUserTopicsOfUser = async (userId: number, opts: { consistent?: boolean } = {}): Promise<UserTopic[]> => {
  const k = entityKeys.userTopicsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_USER_OBJECTS })).map(toUserTopic);
};

/** Stores a policy for a topic that has none; false when one exists (a concurrent write came first). */
export const createUserTopic = (t: UserTopic): Promise<boolean> =>
  sendConditional(
    new PutCommand({ TableName: tableName('main'), Item: buildUserTopicItem(t), ConditionExpression: 'attribute_not_exists(pk)' }),
  );

/**
 * Changes a stored policy (the stored spelling of the topic stays), if it still is the one read;
 * false otherwise.
 */
export const changeUserTopicPolicy = (current: UserTopic, policy: StoredVisibilityPolicy, lastUpdated: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.userTopic(current.userId, current.channelId, current.topic),
      UpdateExpression: 'SET visibilityPolicy = :policy, lastUpdated = :at',
      ConditionExpression: 'visibilityPolicy = :current',
      ExpressionAttributeValues: { ':policy': policy, ':at': lastUpdated, ':current': current.visibilityPolicy },
    }),
  );

/** Removes a stored policy if it still is the one read; false otherwise. */
export const deleteUserTopic = (current: UserTopic): Promise<boolean> =>
  sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.userTopic(current.userId, current.channelId, current.topic),
      ConditionExpression: 'visibilityPolicy = :current',
      ExpressionAttributeValues: { ':current': current.visibilityPolicy },
    }),
  );
