// Password hashes: one item per user, apart from the user item so that no code that reads users
// ever holds one.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { sendConditional } from './common';
import { entityKeys } from './keys';

export const getPasswordHash = async (userId: number): Promise<string | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.password(userId) }));
  return out.Item?.hash as string | undefined;
};

export const buildPasswordItem = (userId: number, hash: string) => ({ ...entityKeys.password(userId), userId, hash });

export const putPasswordHash = async (userId: number, hash: string): Promise<void> => {
  await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: buildPasswordItem(userId, hash) }));
};

/**
 * Replaces a password hash with a new hash of the same password (a stronger cost) if it is still
 * `current`: a password change made meanwhile is kept (false).
 */
export const replacePasswordHash = (userId: number, current: string, hash: string): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: buildPasswordItem(userId, hash),
      ConditionExpression: '#hash = :current',
      ExpressionAttributeNames: { '#hash': 'hash' },
      ExpressionAttributeValues: { ':current': current },
    }),
  );
