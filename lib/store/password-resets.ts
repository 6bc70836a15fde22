// Password reset links (upstream's Django password reset tokens): one item per link, keyed by its
// one-time key, naming the account and a fingerprint of the password hash it was issued against.
// Using a link deletes its item in the same transaction that writes the new password hash, on
// the condition that the hash is still the one read, so a link sets one password, once.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { sendTransaction } from './common';
import { entityKeys, keys, lookupKey } from './keys';

export type PasswordResetKey = {
  resetKey: string;
  realmId: number;
  userId: number;
  /** sha256 of the password hash when the link was issued ('' for an account without a password). */
  passwordFingerprint: string;
  /** UNIX seconds. */
  dateCreated: number;
  /** UNIX seconds: the link works until then. */
  validUntil: number;
};

/** How long after its expiry a link's item stays (DynamoDB's TTL deletes it then; reads check the expiry). */
const EXPIRED_KEY_KEPT_SECONDS = 24 * 60 * 60;

/** Writes a new link's key (never over another). */
export const putPasswordResetKey = async (key: PasswordResetKey): Promise<void> => {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...keys.passwordResetKey(key.resetKey), ...key, expiresAt: key.validUntil + EXPIRED_KEY_KEPT_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** A link's key, or undefined (never issued, used, removed by the TTL, or too long for a key). */
export const getPasswordResetKey = async (resetKey: string): Promise<PasswordResetKey | undefined> => {
  const key = lookupKey(() => keys.passwordResetKey(resetKey));
  if (!key) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }));
  if (!out.Item) return undefined;
  return {
    resetKey,
    realmId: Number(out.Item.realmId),
    userId: Number(out.Item.userId),
    passwordFingerprint: String(out.Item.passwordFingerprint ?? ''),
    dateCreated: Number(out.Item.dateCreated),
    validUntil: Number(out.Item.validUntil),
  };
};

/**
 * Sets the account's password hash to `hash` and removes the link's key in one transaction, if
 * the key still exists and the stored hash is still `currentHash` (undefined: none stored).
 * 'written'; 'key_gone' (used meanwhile) or 'password_changed' and nothing was written;
 * 'conflict' when another transaction was writing one of the items.
 */
export const resetPasswordWithKey = async (
  resetKey: string,
  userId: number,
  currentHash: string | undefined,
  hash: string,
): Promise<'written' | 'key_gone' | 'password_changed' | 'conflict'> => {
  const loss = await sendTransaction([
    { Delete: { TableName: tableName('main'), Key: keys.passwordResetKey(resetKey), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.password(userId), userId, hash },
        ...(currentHash === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#hash = :current',
              ExpressionAttributeNames: { '#hash': 'hash' },
              ExpressionAttributeValues: { ':current': currentHash },
            }),
      },
    },
  ]);
  if (loss === undefined) return 'written';
  if (loss.lost === 'conflict') return 'conflict';
  return loss.reasons[0] === 'ConditionalCheckFailed' ? 'key_gone' : 'password_changed';
};
