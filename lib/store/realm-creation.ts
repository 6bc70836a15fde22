// Realm creation links (upstream's RealmCreationKey) and the write that creates an organization:
// the link's key is consumed in the same transaction that writes the organization and the lock of
// its subdomain, so a link makes one organization and a subdomain names one.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Realm } from '../models/realm';
import { documentClient, tableName } from './client';
import { sendTransaction, type TransactItem } from './common';
import { keys, lookupKey } from './keys';

export type RealmCreationKey = { creationKey: string; dateCreated: number };

/** How long after its expiry a link's item stays (DynamoDB's TTL deletes it then; reads check the expiry). */
const EXPIRED_KEY_KEPT_SECONDS = 24 * 60 * 60;

/** Writes a new link's key; it expires at `expiresAt` (UNIX seconds). */
export const putRealmCreationKey = async (key: RealmCreationKey, expiresAt: number): Promise<void> => {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...keys.realmCreationKey(key.creationKey), ...key, validUntil: expiresAt, expiresAt: expiresAt + EXPIRED_KEY_KEPT_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** A link's key with the end of its validity, or undefined (never issued, used, or too long for a key). */
export const getRealmCreationKey = async (creationKey: string): Promise<(RealmCreationKey & { validUntil: number }) | undefined> => {
  const key = lookupKey(() => keys.realmCreationKey(creationKey));
  if (!key) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }));
  if (!out.Item) return undefined;
  return { creationKey, dateCreated: Number(out.Item.dateCreated), validUntil: Number(out.Item.validUntil) };
};

/** Removes a link's key (tests and the operator); absent is fine. */
export const deleteRealmCreationKey = async (creationKey: string): Promise<void> => {
  await documentClient().send(new DeleteCommand({ TableName: tableName('main'), Key: keys.realmCreationKey(creationKey) }));
};

/** The lock of a new organization's subdomain and the organization's item, each written only if absent. */
const claimItems = (realm: Realm): TransactItem[] => [
  {
    Put: {
      TableName: tableName('main'),
      Item: { ...keys.subdomainLock(realm.stringId), realmId: realm.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Put: {
      TableName: tableName('main'),
      Item: { ...keys.realm(realm.id), ...keys.realmByName(realm.stringId), ...realm },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
];

/**
 * Writes a new organization, the lock of its subdomain and the removal of the link's key in one
 * transaction: 'written'; 'key_gone' (used meanwhile) or 'subdomain_taken' and nothing was written;
 * 'conflict' when another transaction was writing one of the items (retry).
 */
export const createRealmWithKey = async (
  realm: Realm,
  creationKey: string,
): Promise<'written' | 'key_gone' | 'subdomain_taken' | 'conflict'> => {
  const loss = await sendTransaction([
    {
      Delete: {
        TableName: tableName('main'),
        Key: keys.realmCreationKey(creationKey),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    ...claimItems(realm),
  ]);
  if (loss === undefined) return 'written';
  if (loss.lost === 'conflict') return 'conflict';
  if (loss.reasons[0] === 'ConditionalCheckFailed') return 'key_gone';
  if (loss.reasons[1] === 'ConditionalCheckFailed') return 'subdomain_taken';
  // The id was taken: a counter behind the stored organizations (doCreateRealm raises it first).
  throw new Error(`organization id ${realm.id} already exists`);
};

/**
 * Claims a subdomain for an organization whose items are all written (an import's last write): the
 * lock of its subdomain and the organization's item in one transaction, so the organization is
 * reachable at once and whole, or not at all. 'subdomain_taken' (nothing written) when another
 * organization has it; 'conflict' when another transaction was writing one of the items (retry).
 */
export const claimSubdomain = async (realm: Realm): Promise<'written' | 'subdomain_taken' | 'conflict'> => {
  const loss = await sendTransaction([...claimItems(realm)]);
  if (loss === undefined) return 'written';
  if (loss.lost === 'conflict') return 'conflict';
  if (loss.reasons[0] === 'ConditionalCheckFailed') return 'subdomain_taken';
  throw new Error(`organization id ${realm.id} already exists`);
};
