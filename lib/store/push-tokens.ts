// Legacy push tokens (upstream's PushDeviceToken): the FCM and APNs tokens the app registers with
// POST /users/me/android_gcm_reg_id and /users/me/apns_device_token, one item per token in its
// owner's partition (entityKeys.pushToken: a user may have several, one per phone).
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LegacyTokenKind } from '../models/push-legacy';
import { documentClient, tableName } from './client';
import { queryPrefix, sendConditional, stripKeys } from './common';
import { entityKeys } from './keys';

export type PushToken = {
  userId: number;
  kind: LegacyTokenKind;
  token: string;
  /** The app's bundle id, of an APNs token. */
  appId?: string;
  /** When it was first registered, UNIX seconds. */
  createdAt: number;
};

/** The most tokens of a user a notification reads (upstream has no limit; a user has a few phones). */
const MAX_TOKENS = 100;

/** Stores a token unless the user has it already (upstream keeps the first registration); true when it is new. */
export const addPushToken = (t: PushToken): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.pushToken(t.userId, t.kind, t.token), ...t },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
    { ownWrite: (stored) => stored?.token === t.token && stored.createdAt === t.createdAt },
  );

export const getPushToken = async (userId: number, kind: LegacyTokenKind, token: string): Promise<PushToken | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.pushToken(userId, kind, token), ConsistentRead: true }),
  );
  return out.Item ? (stripKeys(out.Item) as PushToken) : undefined;
};

/** Removes a token of the user; false when they do not have it (or a concurrent removal came first). */
export const deletePushToken = (userId: number, kind: LegacyTokenKind, token: string): Promise<boolean> =>
  sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.pushToken(userId, kind, token),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );

/** A user's tokens (at most MAX_TOKENS, in key order). */
export const listPushTokensOfUser = async (userId: number): Promise<PushToken[]> => {
  const k = entityKeys.pushTokensOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_TOKENS, overflow: 'truncate' })).map(
    (item) => stripKeys(item) as PushToken,
  );
};
