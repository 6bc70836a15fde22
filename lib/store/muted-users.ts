// Muted users: the mute item in the muter's partition, the muter's count of mutes and the muted
// user's `mutedBy` set on their user items, always written together in one transaction, so the
// three never disagree (docs/data-model.md, "Muted users").
import { MAX_MUTED_USERS, MAX_MUTERS, type MutedUser } from '../models/muted-user';
import { tableName } from './client';
import { queryPrefix, sendTransaction, stripKeys, type Item, type TransactItem } from './common';
import { entityKeys, keys } from './keys';

const toMutedUser = (item: Item): MutedUser => stripKeys(item) as MutedUser;

export const buildMutedUserItem = (m: MutedUser): Item => ({ ...entityKeys.mutedUser(m.userId, m.mutedUserId), ...m });

/** Every mute of a user (one query of the user's partition), by muted user id. */
export const listMutedUsersOfUser = async (userId: number, opts: { consistent?: boolean } = {}): Promise<MutedUser[]> => {
  const k = entityKeys.mutedUsersOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_MUTED_USERS })).map(toMutedUser);
};

/**
 * What a mute transaction found: `muted` (written), `already` (the mute exists), `muterFull` (the
 * muter has MAX_MUTED_USERS mutes), `mutedFull` (the muted user has MAX_MUTERS muters), `conflict`
 * (another transaction was writing one of the items: try again).
 */
export type MuteOutcome = 'muted' | 'already' | 'muterFull' | 'mutedFull' | 'conflict';

/**
 * Stores a mute (the mute item, if none exists), counts it on the muter's item and adds the muter
 * to the muted user's `mutedBy`, each bounded, in one transaction. Both users are of `realmId`.
 */
export const createMute = async (realmId: number, m: MutedUser): Promise<MuteOutcome> => {
  const items: TransactItem[] = [
    { Put: { TableName: tableName('main'), Item: buildMutedUserItem(m), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        TableName: tableName('main'),
        Key: keys.user(realmId, m.userId),
        UpdateExpression: 'ADD mutedCount :one',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(mutedCount) OR mutedCount < :max)',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_MUTED_USERS },
      },
    },
    {
      Update: {
        TableName: tableName('main'),
        Key: keys.user(realmId, m.mutedUserId),
        UpdateExpression: 'ADD mutedBy :muter',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(mutedBy) OR size(mutedBy) < :max)',
        ExpressionAttributeValues: { ':muter': new Set([m.userId]), ':max': MAX_MUTERS },
      },
    },
  ];
  const loss = await sendTransaction(items);
  if (!loss) return 'muted';
  if (loss.lost === 'conflict') return 'conflict';
  if (loss.reasons[0] === 'ConditionalCheckFailed') return 'already';
  return loss.reasons[1] === 'ConditionalCheckFailed' ? 'muterFull' : 'mutedFull';
};

/**
 * Removes a mute (only an existing one), its count on the muter's item and the muter from the
 * muted user's `mutedBy`, in one transaction: `unmuted`, `notMuted` (no such mute), or `conflict`.
 */
export const deleteMute = async (realmId: number, userId: number, mutedUserId: number): Promise<'unmuted' | 'notMuted' | 'conflict'> => {
  const items: TransactItem[] = [
    {
      Delete: { TableName: tableName('main'), Key: entityKeys.mutedUser(userId, mutedUserId), ConditionExpression: 'attribute_exists(pk)' },
    },
    {
      Update: {
        TableName: tableName('main'),
        Key: keys.user(realmId, userId),
        UpdateExpression: 'ADD mutedCount :minusOne',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    },
    {
      Update: {
        TableName: tableName('main'),
        Key: keys.user(realmId, mutedUserId),
        UpdateExpression: 'DELETE mutedBy :muter',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':muter': new Set([userId]) },
      },
    },
  ];
  const loss = await sendTransaction(items);
  if (!loss) return 'unmuted';
  return loss.lost === 'conflict' ? 'conflict' : 'notMuted';
};
