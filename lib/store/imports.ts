// An import's checkpoint (lib/actions/organization/import-run.ts): one item per archive and
// subdomain, holding which run may go on (`run`), the attempt that holds it now (`owner`, until
// `ownedUntil`), where the next run starts writing messages (`next`), the new organization's id
// once allocated, and the failed attempts at this run. It is a DynamoDB item, not an S3 object,
// because every change to it is conditional on the attempt that owns it, which S3 (and the local
// store) cannot express; the bulky state it points to (the id maps, the undo log) is in S3.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { sendConditional, type Item } from './common';
import { keys } from './keys';

export type ImportHome = { bucket: string; key: string; subdomain: string };

export type ImportCheckpoint = {
  run: number;
  next: number;
  failures: number;
  realmId?: number;
  owner?: string;
  ownedUntil?: number;
};

const keyOf = (home: ImportHome) => keys.importCheckpoint(home.bucket, home.key, home.subdomain);

/** The checkpoint, read consistently, or undefined. */
export const getCheckpoint = async (home: ImportHome): Promise<ImportCheckpoint | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: keyOf(home), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const { run, next, failures, realmId, owner, ownedUntil } = out.Item as Item;
  return {
    run: Number(run),
    next: Number(next),
    failures: Number(failures ?? 0),
    ...(typeof realmId === 'number' ? { realmId } : {}),
    ...(typeof owner === 'string' ? { owner, ownedUntil: Number(ownedUntil) } : {}),
  };
};

/** Creates the checkpoint of a new import (run 1, nothing written); leaves one that exists. */
export const createCheckpoint = async (home: ImportHome): Promise<void> => {
  await sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...keyOf(home), run: 1, next: 0, failures: 0 },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/**
 * Claims run `run` for the attempt `owner` until `until` (ms): only while nobody holds it, or its
 * holder's time is past (an attempt that died without a word: counted as a failure). Returns the
 * claimed checkpoint, or undefined when another attempt holds it or the run is not the next one.
 */
export const claimRun = async (
  home: ImportHome,
  run: number,
  owner: string,
  now: number,
  until: number,
): Promise<ImportCheckpoint | undefined> => {
  const attempt = async (stale: boolean): Promise<boolean> =>
    sendConditional(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: keyOf(home),
        UpdateExpression: `SET #owner = :owner, ownedUntil = :until${stale ? ', failures = failures + :one' : ''}`,
        ConditionExpression: `#run = :run AND ${stale ? 'ownedUntil < :now' : 'attribute_not_exists(#owner)'}`,
        ExpressionAttributeNames: { '#owner': 'owner', '#run': 'run' },
        ExpressionAttributeValues: { ':owner': owner, ':until': until, ':run': run, ...(stale ? { ':now': now, ':one': 1 } : {}) },
      }),
      { ownWrite: (stored) => stored?.owner === owner },
    );
  if (!(await attempt(false)) && !(await attempt(true))) return undefined;
  const claimed = await getCheckpoint(home);
  return claimed?.owner === owner ? claimed : undefined;
};

const ownedUpdate = (
  home: ImportHome,
  owner: string,
  expression: string,
  values: Record<string, unknown>,
  names: Record<string, string> = {},
) =>
  new UpdateCommand({
    TableName: tableName('main'),
    Key: keyOf(home),
    UpdateExpression: expression,
    ConditionExpression: '#owner = :owner',
    ExpressionAttributeNames: { '#owner': 'owner', ...names },
    ExpressionAttributeValues: { ':owner': owner, ...values },
  });

/** Records the new organization's id, while `owner` holds the checkpoint. */
export const recordRealmId = (home: ImportHome, owner: string, realmId: number): Promise<boolean> =>
  sendConditional(ownedUpdate(home, owner, 'SET realmId = :realmId', { ':realmId': realmId }), {
    ownWrite: (stored) => stored?.realmId === realmId,
  });

/** Hands the checkpoint to run `run + 1`, starting at message `next`; only while `owner` holds run `run`. */
export const advanceRun = (home: ImportHome, owner: string, run: number, next: number): Promise<boolean> =>
  sendConditional(
    ownedUpdate(
      home,
      owner,
      'SET #run = :next_run, #next = :next, failures = :zero REMOVE #owner, ownedUntil',
      { ':next_run': run + 1, ':next': next, ':zero': 0 },
      { '#run': 'run', '#next': 'next' },
    ),
    { ownWrite: (stored) => stored?.run === run + 1 && stored.next === next },
  );

/** Lets go of a run that failed (its next attempt may claim it) and counts the failure; returns the failures so far. */
export const releaseFailedRun = async (home: ImportHome, owner: string): Promise<number> => {
  await sendConditional(ownedUpdate(home, owner, 'SET failures = failures + :one REMOVE #owner, ownedUntil', { ':one': 1 }), {
    ownWrite: (stored) => stored !== undefined && stored.owner === undefined,
  });
  return (await getCheckpoint(home))?.failures ?? 0;
};

/** Removes the checkpoint (the import finished, or everything it wrote was removed). */
export const deleteCheckpoint = async (home: ImportHome): Promise<void> => {
  await documentClient().send(new DeleteCommand({ TableName: tableName('main'), Key: keyOf(home) }));
};
