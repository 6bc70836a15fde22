// Password hashes (one item per user, apart from the user item so that no code that reads users
// ever holds one) and failed password logins per username (a list of times with a TTL).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { entityKeys, lookupKey } from './keys';

export const getPasswordHash = async (userId: number): Promise<string | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.password(userId) }));
  return out.Item?.hash as string | undefined;
};

export const buildPasswordItem = (userId: number, hash: string) => ({ ...entityKeys.password(userId), userId, hash });

export const putPasswordHash = async (userId: number, hash: string): Promise<void> => {
  await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: buildPasswordItem(userId, hash) }));
};

/** The times (ms) of the failed logins recorded for a username, oldest first (expired ones included). */
export const getLoginFailures = async (realmId: number, username: string): Promise<number[]> => {
  const Key = lookupKey(() => entityKeys.loginFailures(realmId, username));
  if (!Key) return [];
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key, ConsistentRead: true }));
  return (out.Item?.times as number[] | undefined) ?? [];
};

/**
 * Appends a failed login (an atomic list update, so concurrent failures are all counted). The
 * item expires a window after the last failure, which bounds the list: a username is refused
 * before its password is checked once the window holds the limit.
 */
export const recordLoginFailure = async (realmId: number, username: string, now: number, expiresAt: number): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.loginFailures(realmId, username),
      UpdateExpression: 'SET times = list_append(if_not_exists(times, :empty), :now), expiresAt = :exp',
      ExpressionAttributeValues: { ':empty': [], ':now': [now], ':exp': expiresAt },
    }),
  );
};
