// Web sessions (the `sessionid` cookie of the server-rendered pages): one item per session, keyed
// by the sha256 of the cookie's random token, so that the table never holds a token that would
// sign anyone in. Each expires through the table's TTL attribute; DynamoDB deletes expired items
// late (DynamoDB Local never), so a read checks the expiry itself.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete, queryAll } from './common';
import { documentClient, tableName } from './client';
import { entityKeys } from './keys';

export type StoredSession = { tokenHash: string; userId: number; realmId: number; createdAt: number; expiresAt: number };

export const buildSessionItem = (s: StoredSession) => ({
  ...entityKeys.session(s.tokenHash),
  ...entityKeys.sessionOfUser(s.userId, s.tokenHash),
  userId: s.userId,
  realmId: s.realmId,
  createdAt: s.createdAt,
  expiresAt: s.expiresAt,
});

/** Writes a new session (its token is fresh random bytes: no condition needed). */
export const putSession = async (s: StoredSession): Promise<void> => {
  await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: buildSessionItem(s) }));
};

/** The session of a token hash, expired or not (the caller compares `expiresAt` with the clock). */
export const getSession = async (tokenHash: string): Promise<StoredSession | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.session(tokenHash) }));
  const item = out.Item;
  if (!item) return undefined;
  return {
    tokenHash,
    userId: item.userId as number,
    realmId: item.realmId as number,
    createdAt: item.createdAt as number,
    expiresAt: item.expiresAt as number,
  };
};

/** Ends a session (idempotent: an absent one is already ended). */
export const deleteSession = async (tokenHash: string): Promise<void> => {
  await documentClient().send(new DeleteCommand({ TableName: tableName('main'), Key: entityKeys.session(tokenHash) }));
};

/** A sign-in handed to an organization's host: whose, and until when (UNIX seconds). */
export type LoginHandoff = { tokenHash: string; userId: number; realmId: number; expiresAt: number };

/** Writes a hand-off (its token is fresh random bytes: no condition needed); the TTL removes it late, reads check `expiresAt`. */
export const putLoginHandoff = async (h: LoginHandoff): Promise<void> => {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.loginHandoff(h.tokenHash), userId: h.userId, realmId: h.realmId, expiresAt: h.expiresAt },
    }),
  );
};

/** Removes a hand-off and returns it, once: undefined when there is none (never written, or taken already). */
export const takeLoginHandoff = async (tokenHash: string): Promise<LoginHandoff | undefined> => {
  try {
    const out = await documentClient().send(
      new DeleteCommand({
        TableName: tableName('main'),
        Key: entityKeys.loginHandoff(tokenHash),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = out.Attributes!;
    return { tokenHash, userId: Number(item.userId), realmId: Number(item.realmId), expiresAt: Number(item.expiresAt) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** The most sessions of one user endSessionsOfUser reads (two weeks of sign-ins). */
const MAX_SESSIONS_OF_USER = 1000;

/**
 * Ends every session of a user but `except` (a token hash: the session asking), through the gsi1
 * index of their sessions, eventually consistent: a session started a moment ago may be missed.
 * Returns how many were ended.
 */
export const deleteSessionsOfUser = async (userId: number, opts: { except?: string } = {}): Promise<number> => {
  const { gsi1pk } = entityKeys.sessionOfUser(userId, '');
  const items = await queryAll(
    {
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
    },
    { max: MAX_SESSIONS_OF_USER, overflow: 'truncate' },
  );
  const ended = items.map((item) => String(item.gsi1sk)).filter((tokenHash) => tokenHash !== opts.except);
  await batchDelete(
    'main',
    ended.map((tokenHash) => entityKeys.session(tokenHash)),
  );
  return ended.length;
};
