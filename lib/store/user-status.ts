// User statuses: one item per user who ever set one, in the realm partition.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { UserStatus } from '../models/user-status';
import { documentClient, tableName } from './client';
import { queryPrefix, stripKeys } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_USERS } from './limits';

/** Every stored status of an organization (bounded by its number of users). */
export const listUserStatusesOfRealm = async (realmId: number): Promise<UserStatus[]> => {
  const k = entityKeys.userStatusesOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_ORGANIZATION_USERS })).map((item) => stripKeys(item) as UserStatus);
};

/** One user's status item, if they ever set one. */
export const getUserStatus = async (realmId: number, userId: number): Promise<UserStatus | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.userStatus(realmId, userId) }));
  return out.Item ? (stripKeys(out.Item) as UserStatus) : undefined;
};

/** Sets the given fields of a user's status, creating it with empty fields first if needed. */
export const updateUserStatus = async (
  realmId: number,
  userId: number,
  changes: Partial<Pick<UserStatus, 'statusText' | 'emojiName' | 'emojiCode' | 'reactionType'>>,
): Promise<void> => {
  const empty: Omit<UserStatus, 'realmId' | 'userId'> = { statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' };
  const fields = Object.keys(empty) as (keyof typeof empty)[];
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.userStatus(realmId, userId),
      UpdateExpression: `SET realmId = :rid, userId = :uid, ${fields
        .map((f, i) => (changes[f] !== undefined ? `#f${i} = :c${i}` : `#f${i} = if_not_exists(#f${i}, :e${i})`))
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map((f, i) => [`#f${i}`, f])),
      ExpressionAttributeValues: {
        ':rid': realmId,
        ':uid': userId,
        ...Object.fromEntries(fields.map((f, i) => (changes[f] !== undefined ? [`:c${i}`, changes[f]] : [`:e${i}`, empty[f]]))),
      },
    }),
  );
};
