// Data exports in the realm partition (one item per export, its status and its job's checkpoint),
// and the reads only the export job makes: a message counter's value, a user's rows in a range of
// message ids. The archive's bytes are S3 objects (lib/store/files.ts).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportProgress, ExportStatus, RealmExport } from '../models/realm-export';
import type { UserMessage } from '../models/message';
import { documentClient, tableName } from './client';
import { queryAll, queryPrefix, sendConditional, stripKeys, type Item } from './common';
import { entityKeys, keys, pad } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

/** The organization's exports, in id order. One Query (consistent: the list follows a change at once). */
export const listRealmExports = async (realmId: number): Promise<RealmExport[]> => {
  const k = entityKeys.realmExportsOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { consistent: true, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(
    (item) => stripKeys(item) as RealmExport,
  );
};

/** One export of the organization, read consistently, or undefined. */
export const getRealmExport = async (realmId: number, exportId: number): Promise<RealmExport | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.realmExport(realmId, exportId), ConsistentRead: true }),
  );
  return out.Item ? (stripKeys(out.Item) as RealmExport) : undefined;
};

/** Writes a new export (its id is fresh: the key is never taken). */
export const putRealmExport = async (e: RealmExport): Promise<void> => {
  await documentClient().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.realmExport(e.realmId, e.id), ...e },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/**
 * Moves an export from the status `from` (and, when given, the job's run count `runs` as read) to
 * new values: false when another change came first (a concurrent run, a deletion), nothing written.
 */
export const updateRealmExport = async (
  e: Pick<RealmExport, 'realmId' | 'id'>,
  from: { status: ExportStatus; runs?: number },
  changes: Partial<
    Pick<RealmExport, 'status' | 'dateStarted' | 'dateSucceeded' | 'dateFailed' | 'dateDeleted' | 'exportPath' | 'runs' | 'failures'>
  > & {
    progress?: ExportProgress;
  },
): Promise<boolean> => {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':from': from.status };
  entries.forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:v${i}`] = value;
  });
  let condition = '#status = :from';
  if (from.runs !== undefined) {
    values[':runs'] = from.runs;
    names['#runs'] = 'runs';
    condition += from.runs === 0 ? ' AND (attribute_not_exists(#runs) OR #runs = :runs)' : ' AND #runs = :runs';
  }
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.realmExport(e.realmId, e.id),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
};

/** The current value of an id counter (0 before the first id): the newest message id of an organization is `message#<rid>`'s. */
export const readCounter = async (entity: string): Promise<number> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: keys.counter(entity), ConsistentRead: true }),
  );
  return Number(out.Item?.value ?? 0);
};

/**
 * A user's rows of the messages with ids from `fromId` to `toId`, ascending: one Query of the
 * user's partition (its UM# range), at most the range's size of items.
 */
export const listRowsOfUserInRange = async (
  userId: number,
  fromId: number,
  toId: number,
): Promise<Pick<UserMessage, 'userId' | 'messageId' | 'flags'>[]> => {
  const items = await queryAll(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':from': `UM#${pad(fromId)}`, ':to': `UM#${pad(toId)}` },
      ProjectionExpression: 'userId, messageId, flags',
    },
    { max: toId - fromId + 1 },
  );
  return items.map((item: Item) => ({
    userId: Number(item.userId),
    messageId: Number(item.messageId),
    flags: (item.flags as string[]) ?? [],
  }));
};
