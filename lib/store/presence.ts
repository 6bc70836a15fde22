// Presence rows and the per-organization presence sequence. Access patterns (docs/data-model.md):
//
// | pattern                        | table/index | key condition                                          |
// |--------------------------------|-------------|--------------------------------------------------------|
// | a user's row + the sequence    | main        | BatchGet REALM#<rid>/PRESENCE#<uid>, REALM#<rid>/PRESENCESEQ (consistent) |
// | rows changed after an update id| main.gsi1   | gsi1pk = PRESENCE#<rid> AND gsi1sk > <last_update_id>  |
// | rows connected since a time    | main.gsi2   | gsi2pk = PRESENCECONN#<rid> AND gsi2sk >= <epoch secs> |
// | write a row                    | main        | TransactWrite: sequence value → n (if still n-1) + row (if unchanged since read) |
//
// A write takes the next update id and stores the row in one transaction that also checks that
// the sequence still holds the value read, so ids are never handed out twice and rows are
// committed in id order (as upstream's lock on its sequence row does): a reader that has seen
// id n has seen every row committed with a smaller id.
import { GetCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Presence, PresenceUserFields } from '../models/presence';
import { documentClient, tableName } from './client';
import { batchGet, queryAll, sendConditional, sendTransaction, type Item } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_USERS } from './limits';

const num = (value: unknown): number => Number(value);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export const toPresence = (item: Item): Presence => ({
  realmId: num(item.realmId),
  userId: num(item.userId),
  lastActiveTime: numOrNull(item.lastActiveTime),
  lastConnectedTime: numOrNull(item.lastConnectedTime),
  lastUpdateId: num(item.lastUpdateId),
  email: String(item.email),
  isBot: item.isBot === true,
  isActive: item.isActive === true,
  dateJoined: num(item.dateJoined),
});

/** The stored item of a row, with its two index entries (none on gsi2 while never connected). */
export const buildPresenceItem = (p: Presence): Item => ({
  ...entityKeys.presence(p.realmId, p.userId),
  ...entityKeys.presenceByUpdateId(p.realmId, p.lastUpdateId),
  ...(p.lastConnectedTime !== null ? entityKeys.presenceByConnected(p.realmId, p.lastConnectedTime) : {}),
  realmId: p.realmId,
  userId: p.userId,
  lastActiveTime: p.lastActiveTime,
  lastConnectedTime: p.lastConnectedTime,
  lastUpdateId: p.lastUpdateId,
  email: p.email,
  isBot: p.isBot,
  isActive: p.isActive,
  dateJoined: p.dateJoined,
});

const keyString = (k: { pk: string; sk: string }): string => `${k.pk}|${k.sk}`;

/** A user's row (if any) and the organization's sequence value (0 before the first write), read consistently in one request. */
export const getWithSequence = async (realmId: number, userId: number): Promise<{ presence: Presence | undefined; sequence: number }> => {
  const rowKey = entityKeys.presence(realmId, userId);
  const seqKey = entityKeys.presenceSequence(realmId);
  const items = await batchGet('main', [rowKey, seqKey], { consistent: true });
  const byKey = new Map(items.map((item) => [keyString({ pk: String(item.pk), sk: String(item.sk) }), item]));
  const row = byKey.get(keyString(rowKey));
  const seq = byKey.get(keyString(seqKey));
  return { presence: row ? toPresence(row) : undefined, sequence: seq?.value === undefined ? 0 : num(seq.value) };
};

/** A user's row. */
export const get = async (realmId: number, userId: number): Promise<Presence | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.presence(realmId, userId) }));
  return out.Item ? toPresence(out.Item) : undefined;
};

/** The rows of several users (BatchGetItem); users who never reported presence are left out. */
export const getMany = async (realmId: number, userIds: number[]): Promise<Presence[]> =>
  (
    await batchGet(
      'main',
      userIds.map((id) => entityKeys.presence(realmId, id)),
    )
  ).map(toPresence);

/** The organization's sequence value: the last update id handed out (0 before the first). */
export const getSequence = async (realmId: number): Promise<number> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.presenceSequence(realmId), ConsistentRead: true }),
  );
  return out.Item?.value === undefined ? 0 : num(out.Item.value);
};

/**
 * The transaction that stores `next` under update id `sequence + 1`: the sequence moves from
 * `sequence` to `sequence + 1` only if nobody moved it since it was read, and the row is replaced
 * only if it is still the one read (`previousUpdateId`), or created only if there was none.
 */
export const buildWriteInput = (next: Presence, sequence: number, previousUpdateId: number | undefined): TransactWriteCommandInput => {
  if (next.lastUpdateId !== sequence + 1) throw new Error('a presence row takes the next id of the sequence');
  return {
    TransactItems: [
      {
        Update: {
          TableName: tableName('main'),
          Key: entityKeys.presenceSequence(next.realmId),
          UpdateExpression: 'SET #v = :next',
          ConditionExpression: sequence === 0 ? 'attribute_not_exists(#v) OR #v = :prev' : '#v = :prev',
          ExpressionAttributeNames: { '#v': 'value' },
          ExpressionAttributeValues: { ':next': sequence + 1, ':prev': sequence },
        },
      },
      {
        Put: {
          TableName: tableName('main'),
          Item: buildPresenceItem(next),
          ...(previousUpdateId === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'lastUpdateId = :prevRow', ExpressionAttributeValues: { ':prevRow': previousUpdateId } }),
        },
      },
    ],
  };
};

/**
 * Writes a row under the next update id (see buildWriteInput). Returns false when another write
 * of the sequence or of this row came first (a failed condition or a concurrent transaction): the
 * caller re-reads and decides again. Throttling and other failures are thrown, not retried as races.
 */
export const write = async (next: Presence, sequence: number, previousUpdateId: number | undefined): Promise<boolean> => {
  return (await sendTransaction(buildWriteInput(next, sequence, previousUpdateId).TransactItems ?? [])) === undefined;
};

const queryIndex = async (index: 'gsi1' | 'gsi2', pk: string, condition: string, value: string): Promise<Presence[]> =>
  (
    await queryAll(
      {
        TableName: tableName('main'),
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk AND ${index}sk ${condition} :v`,
        ExpressionAttributeValues: { ':pk': pk, ':v': value },
      },
      { max: MAX_ORGANIZATION_USERS },
    )
  ).map(toPresence);

/** Rows whose last change has an update id above `lastUpdateId` (incremental fetch). */
export const listUpdatedAfter = (realmId: number, lastUpdateId: number): Promise<Presence[]> => {
  const k = entityKeys.presenceByUpdateId(realmId, Math.max(0, lastUpdateId));
  return queryIndex('gsi1', k.gsi1pk, '>', k.gsi1sk);
};

/** Rows last connected at or after `sinceSecs` (windowed full fetch); rows never connected are not in the index. */
export const listConnectedSince = (realmId: number, sinceSecs: number): Promise<Presence[]> => {
  const k = entityKeys.presenceByConnected(realmId, Math.max(0, Math.ceil(sinceSecs)));
  return queryIndex('gsi2', k.gsi2pk, '>=', k.gsi2sk);
};

/** Copies changed user fields onto the user's row, if there is one (its update id is kept, as upstream's). */
export const updateUserFields = async (realmId: number, userId: number, fields: PresenceUserFields): Promise<void> => {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.presence(realmId, userId),
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: 'SET email = :email, isBot = :isBot, isActive = :isActive, dateJoined = :dateJoined',
      ExpressionAttributeValues: {
        ':email': fields.email,
        ':isBot': fields.isBot,
        ':isActive': fields.isActive,
        ':dateJoined': fields.dateJoined,
      },
    }),
  );
};
