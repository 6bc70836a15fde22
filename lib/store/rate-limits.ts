// The recent attempts of a rate-limited entity (a username's logins, a client address's), one
// item per entity and domain: the times of the last attempts admitted, oldest first, and a
// version that every write raises, so two concurrent writers cannot both append to what they read.
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { sendConditional } from './common';
import { entityKeys } from './keys';

export type AttemptLog = { times: number[]; version: number };

/** The attempts recorded for an entity (consistent read; an entity never limited has none). */
export const getAttempts = async (domain: string, entity: string): Promise<AttemptLog> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.rateLimit(domain, entity), ConsistentRead: true }),
  );
  return { times: (out.Item?.times as number[] | undefined) ?? [], version: (out.Item?.version as number | undefined) ?? 0 };
};

/**
 * Replaces the attempts with `times` if they are still the version read (false: a concurrent
 * attempt or clear came first). The item expires at `expiresAt` (seconds), when its newest
 * attempt has left the window.
 */
export const putAttempts = (domain: string, entity: string, read: AttemptLog, times: number[], expiresAt: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.rateLimit(domain, entity),
      UpdateExpression: 'SET times = :times, version = :next, expiresAt = :exp',
      // Version 0 is an absent item: a writer that read a cleared entity's attempts must not bring them back.
      ConditionExpression: read.version === 0 ? 'attribute_not_exists(version)' : 'version = :read',
      ExpressionAttributeValues: {
        ':times': times,
        ':next': read.version + 1,
        ':exp': expiresAt,
        ...(read.version === 0 ? {} : { ':read': read.version }),
      },
    }),
  );

/** Forgets an entity's attempts; a concurrent writer that read them loses its race and reads again. */
export const clearAttempts = async (domain: string, entity: string): Promise<void> => {
  await documentClient().send(new DeleteCommand({ TableName: tableName('main'), Key: entityKeys.rateLimit(domain, entity) }));
};
