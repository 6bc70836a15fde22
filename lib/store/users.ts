import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INTERNAL_REALM_ID, type User } from '../models/user';
import { settingsOfUser } from '../models/user-settings';
import { documentClient, tableName } from './client';
import {
  batchGet,
  buildSetUpdate,
  getByGsi1Key,
  queryAll,
  queryPrefix,
  sendConditional,
  sendTransaction,
  stripKeys,
  type Item,
  type TransactItem,
} from './common';
import { keys, lookupKey } from './keys';
import { MAX_ORGANIZATION_USERS } from './limits';
import { buildPasswordItem } from './passwords';

/** A stored user; `mutedBy` is a number set in the item (lib/store/muted-users.ts), a sorted list here. */
const toUser = (item: Item): User => {
  const { mutedBy, ...rest } = stripKeys(item);
  const user = rest as User;
  if (mutedBy instanceof Set && mutedBy.size > 0) user.mutedBy = [...(mutedBy as Set<number>)].map(Number).sort((a, b) => a - b);
  return user;
};

/**
 * The stored item of a user, with its access paths (id, API key, email, full name, and while
 * enable_stream_push_notifications is on the organization's users with it: see updateSettings).
 */
export const buildUserItem = (user: User): Item => {
  const { mutedBy, ...rest } = user;
  return {
    ...keys.user(user.realmId, user.id),
    ...keys.userByApiKey(user.apiKey),
    ...keys.userByEmail(user.email, user.realmId),
    ...keys.userByName(user.realmId, user.fullName, user.id),
    ...(settingsOfUser(user).enable_stream_push_notifications ? keys.userWithStreamPush(user.realmId, user.id) : {}),
    ...rest,
    // A number set, as the mute transactions ADD to and DELETE from it (an empty set is no attribute).
    ...(mutedBy && mutedBy.length > 0 ? { mutedBy: new Set(mutedBy) } : {}),
  };
};

/** The item that holds a user's email taken in their organization (keys.userEmailLock). */
export const buildEmailLockItem = (user: Pick<User, 'realmId' | 'id' | 'email'>): Item => ({
  ...keys.userEmailLock(user.realmId, user.email),
  realmId: user.realmId,
  userId: user.id,
});

/**
 * Creates a user with its email lock (and its password hash, if any) in one transaction: of two
 * creations of one email in an organization (in any case), one commits and the other writes
 * nothing. 'taken': the email is in use; 'conflict': another transaction held the lock at that
 * moment (retry to learn which).
 */
export const createUser = async (user: User, passwordHash?: string): Promise<'created' | 'taken' | 'conflict'> => {
  const items: TransactItem[] = [
    { Put: { TableName: tableName('main'), Item: buildEmailLockItem(user), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName('main'), Item: buildUserItem(user), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(passwordHash === undefined ? [] : [{ Put: { TableName: tableName('main'), Item: buildPasswordItem(user.id, passwordHash) } }]),
  ];
  const loss = await sendTransaction(items);
  if (!loss) return 'created';
  return loss.reasons[0] === 'ConditionalCheckFailed' ? 'taken' : 'conflict';
};

/** Whether an email is taken in an organization (its lock exists), read consistently. */
export const isEmailTaken = async (realmId: number, email: string): Promise<boolean> => {
  const key = lookupKey(() => keys.userEmailLock(realmId, email));
  if (!key) return false;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }));
  return out.Item !== undefined;
};

export const put = async (user: User): Promise<void> => {
  await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: buildUserItem(user) }));
};

export const get = async (realmId: number, userId: number, opts: { consistent?: boolean } = {}): Promise<User | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: keys.user(realmId, userId), ConsistentRead: opts.consistent ?? false }),
  );
  return out.Item ? toUser(out.Item) : undefined;
};

/** The users of one organization among these ids (batched reads; ids elsewhere are left out). */
export const getMany = async (realmId: number, userIds: number[]): Promise<User[]> => {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  return (
    await batchGet(
      'main',
      ids.map((id) => keys.user(realmId, id)),
    )
  ).map(toUser);
};

/** Authentication: one indexed read. */
export const getByApiKey = async (apiKey: string): Promise<User | undefined> => {
  const k = lookupKey(() => keys.userByApiKey(apiKey));
  if (!k) return undefined;
  const item = await getByGsi1Key(k);
  return item ? toUser(item) : undefined;
};

/** Every account with this email, in any organization (emails are unique within one); none for one too long for a key. */
export const listByEmail = async (email: string): Promise<User[]> => {
  const k = lookupKey(() => keys.usersByEmail(email));
  if (!k) return [];
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.gsi2pk, ':prefix': k.gsi2skPrefix },
    }),
  );
  return (out.Items ?? []).map(toUser);
};

/** The account with this email in one organization. */
export const getByEmail = async (realmId: number, email: string): Promise<User | undefined> =>
  (await listByEmail(email)).find((u) => u.realmId === realmId);

/** A system bot (upstream's get_system_bot): a user of the internal organization, by email. */
export const getSystemBot = (email: string): Promise<User | undefined> => getByEmail(INTERNAL_REALM_ID, email);

/** The users of one organization among these ids, and the system bots among them (which post in every organization). */
export const getManyWithSystemBots = async (realmId: number, userIds: number[]): Promise<User[]> => {
  const found = await getMany(realmId, userIds);
  const missing = userIds.filter((id) => !found.some((u) => u.id === id));
  return missing.length === 0 ? found : [...found, ...(await getMany(INTERNAL_REALM_ID, missing))];
};

/**
 * The users of one organization with each of these full names (case-insensitively), at most
 * `perName` of each: one indexed query per name, concurrently. A mention by name needs to know
 * only whether a name is one user's, so `perName` 2 answers it.
 */
export const listByFullNames = async (realmId: number, names: string[], perName: number): Promise<User[]> => {
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  const found = await Promise.all(
    lowered.map((name) =>
      queryAll(
        {
          TableName: tableName('main'),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.userByName(realmId, name, 0).gsi3pk },
        },
        { max: perName, overflow: 'truncate' },
      ),
    ),
  );
  return found.flat().map(toUser);
};

/** Every user of an organization (bounded by its size; for register's user list and seeding checks). */
export const listOfRealm = async (realmId: number): Promise<User[]> => {
  const k = keys.usersOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_ORGANIZATION_USERS })).map(toUser);
};

/**
 * One page of an organization's users (bots and deactivated ones too), in key order, after the
 * user `after` (the last one of the page before): for jobs that go through a whole organization a
 * page per step. `next` is the last user's id when more may follow.
 */
export const listPageOfRealm = async (
  realmId: number,
  after: number | undefined,
  limit: number,
): Promise<{ users: User[]; next?: number }> => {
  const k = keys.usersOfRealm(realmId);
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
      Limit: limit,
      ...(after !== undefined ? { ExclusiveStartKey: keys.user(realmId, after) } : {}),
    }),
  );
  const users = (out.Items ?? []).map(toUser);
  return { users, ...(out.LastEvaluatedKey && users.length > 0 ? { next: users[users.length - 1].id } : {}) };
};

/**
 * Whether an organization has more than `limit` active users (bots included), counting only until
 * it knows: about `limit` + 1 items read when its users are active (Select COUNT still reads them).
 */
export const hasMoreActiveUsersThan = async (realmId: number, limit: number): Promise<boolean> => {
  const k = keys.usersOfRealm(realmId);
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName('main'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'isActive = :yes',
        ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix, ':yes': true },
        Select: 'COUNT',
        Limit: limit + 1 - count,
        ExclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && count <= limit);
  return count > limit;
};

/** Sets one or more plain attributes of a user. */
export const update = async (
  realmId: number,
  userId: number,
  // Not the keys' attributes: a new API key or full name rewrites its index key too (setApiKey,
  // setFullName); emails never change (their lock, buildEmailLockItem); the mutes' attributes
  // change only with their mute items (lib/store/muted-users.ts).
  changes: Partial<Omit<User, 'id' | 'realmId' | 'apiKey' | 'email' | 'fullName' | 'mutedBy' | 'mutedCount'>>,
): Promise<void> => {
  if (Object.keys(changes).length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      ConditionExpression: 'attribute_exists(pk)',
      ...buildSetUpdate(changes),
    }),
  );
};

/**
 * Sets an attribute of a user only if it still has the value the caller read (false otherwise:
 * a concurrent change came first). For role, activation and bot owner changes, whose checks (the last
 * owner, already active) were made on the value read.
 */
export const setIf = async <K extends 'role' | 'isActive' | 'botOwnerId'>(
  realmId: number,
  userId: number,
  attribute: K,
  from: User[K],
  to: User[K],
): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      UpdateExpression: 'SET #a = :to',
      ConditionExpression: 'attribute_exists(pk) AND #a = :from',
      ExpressionAttributeNames: { '#a': attribute },
      ExpressionAttributeValues: { ':to': to, ':from': from },
    }),
  );

/**
 * Records that a bot's owner is told of a problem now, only if the last such notice is older
 * than `waitSeconds` (upstream's last_reminder, BOT_OWNER_STREAM_ALERT_WAITPERIOD): false when
 * one went out within the wait, so of two concurrent notices one is sent.
 */
export const claimBotReminder = async (realmId: number, botId: number, now: number, waitSeconds: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, botId),
      UpdateExpression: 'SET lastReminder = :now',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastReminder) OR lastReminder < :cutoff)',
      ExpressionAttributeValues: { ':now': now, ':cutoff': now - waitSeconds },
    }),
  );

/**
 * Changes a user's full name and its name index key (gsi3, mentions by name) together, if the
 * name is still `from`: the index then finds the user under the new name only.
 */
export const setFullName = async (realmId: number, userId: number, from: string, to: string): Promise<boolean> => {
  const name = keys.userByName(realmId, to, userId);
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      UpdateExpression: 'SET fullName = :to, gsi3pk = :pk, gsi3sk = :sk',
      ConditionExpression: 'attribute_exists(pk) AND fullName = :from',
      ExpressionAttributeValues: { ':to': to, ':from': from, ':pk': name.gsi3pk, ':sk': name.gsi3sk },
    }),
  );
};

/**
 * Replaces a user's API key and its authentication index key (gsi1) together, if the key is
 * still `from`: from then on the old key finds no user.
 */
export const setApiKey = async (realmId: number, userId: number, from: string, to: string): Promise<boolean> => {
  const k = keys.userByApiKey(to);
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      UpdateExpression: 'SET apiKey = :to, gsi1pk = :pk, gsi1sk = :sk',
      ConditionExpression: 'attribute_exists(pk) AND apiKey = :from',
      ExpressionAttributeValues: { ':to': to, ':from': from, ':pk': k.gsi1pk, ':sk': k.gsi1sk },
    }),
  );
};

/**
 * Sets a user's avatar source and version (and, for an upload, its S3 key base), only if the
 * stored version is still `fromVersion` (an unset version counts as 1): of two changes made from
 * the same version, one lands and the other gets false, so no two changes share a version.
 */
export const setAvatar = async (
  realmId: number,
  userId: number,
  change: Required<Pick<User, 'avatarSource' | 'avatarVersion'>> & Pick<User, 'avatarPath'>,
  fromVersion: number,
): Promise<boolean> => {
  const set = buildSetUpdate(Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)));
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      ConditionExpression: `attribute_exists(pk) AND (#version = :from${fromVersion === 1 ? ' OR attribute_not_exists(#version)' : ''})`,
      UpdateExpression: set.UpdateExpression,
      ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#version': 'avatarVersion' },
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':from': fromVersion },
    }),
  );
};

/**
 * Sets personal settings in the user's `settings` map, one attribute each, so that concurrent
 * changes of different settings do not overwrite each other. Creates the map on first use. A
 * change of enable_stream_push_notifications adds the user to the organization's users with it
 * (keys.userWithStreamPush) or takes them out, in the same write.
 */
export const updateSettings = async (
  realmId: number,
  userId: number,
  changes: Record<string, boolean | number | string>,
): Promise<void> => {
  const names = Object.keys(changes);
  if (names.length === 0) return;
  const streamPush = changes.enable_stream_push_notifications;
  const index = keys.userWithStreamPush(realmId, userId);
  const sets = names.map((_, i) => `#s.#n${i} = :v${i}`);
  if (streamPush === true) sets.push('gsi4pk = :ipk', 'gsi4sk = :isk');
  const setEach = new UpdateCommand({
    TableName: tableName('main'),
    Key: keys.user(realmId, userId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_exists(#s)',
    UpdateExpression: `SET ${sets.join(', ')}${streamPush === false ? ' REMOVE gsi4pk, gsi4sk' : ''}`,
    ExpressionAttributeNames: { '#s': 'settings', ...Object.fromEntries(names.map((n, i) => [`#n${i}`, n])) },
    ExpressionAttributeValues: {
      ...Object.fromEntries(names.map((n, i) => [`:v${i}`, changes[n]])),
      ...(streamPush === true ? { ':ipk': index.gsi4pk, ':isk': index.gsi4sk } : {}),
    },
  });
  if (await sendConditional(setEach)) return;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.user(realmId, userId),
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: 'SET #s = if_not_exists(#s, :empty)',
      ExpressionAttributeNames: { '#s': 'settings' },
      ExpressionAttributeValues: { ':empty': {} },
    }),
  );
  await documentClient().send(setEach);
};

/** The ids of an organization's users whose enable_stream_push_notifications is on (eventually consistent index), ascending. */
export const listIdsWithStreamPush = async (realmId: number): Promise<number[]> =>
  (
    await queryAll(
      {
        TableName: tableName('main'),
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.usersWithStreamPush(realmId).gsi4pk },
        ProjectionExpression: 'id',
      },
      { max: MAX_ORGANIZATION_USERS },
    )
  ).map((item) => Number(item.id));
