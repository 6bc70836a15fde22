import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Realm } from '../models/realm';
import { documentClient, tableName } from './client';
import { sendConditional, sendTransaction, stripKeys, type Item } from './common';
import { buildUseGroupItem } from './user-groups';
import { keys, lookupKey } from './keys';

const toRealm = (item: Item): Realm => stripKeys(item) as Realm;

export const buildPutRealmInput = (realm: Realm) => ({
  TableName: tableName('main'),
  Item: { ...keys.realm(realm.id), ...keys.realmByName(realm.stringId), ...realm },
});

export const put = async (realm: Realm): Promise<void> => {
  await documentClient().send(new PutCommand(buildPutRealmInput(realm)));
};

export const get = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<Realm | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: keys.realm(realmId), ConsistentRead: opts.consistent }),
  );
  return out.Item ? toRealm(out.Item) : undefined;
};

/** The organization served at a subdomain (its string_id); none for one too long for a key. */
export const getByStringId = async (stringId: string): Promise<Realm | undefined> => {
  const k = lookupKey(() => keys.realmByName(stringId));
  if (!k) return undefined;
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ':sk': k.gsi1sk },
    }),
  );
  const item = out.Items?.[0];
  return item ? toRealm(item) : undefined;
};

/** The organization settings PATCH /realm writes. */
export type RealmSettingsChanges = Partial<
  Pick<
    Realm,
    | 'name'
    | 'description'
    | 'enableReadReceipts'
    | 'enableSpectatorAccess'
    | 'waitingPeriodThreshold'
    | 'defaultLanguage'
    | 'messageEditSettings'
    | 'properties'
    | 'groupSettings'
    | 'userSettingsDefaults'
  >
>;

/**
 * Writes changed organization settings and bumps the settings version, if that version is still
 * `version` (undefined: never changed); false when another change came first. `usedGroupIds`
 * (groups a new group setting names) are marked used in the same transaction, on the condition
 * that they are still active (buildUseGroupItem), so a concurrent deactivation of one of them
 * loses (false as well: the caller checks again on fresh data).
 */
export const updateSettings = async (
  realmId: number,
  version: number | undefined,
  changes: RealmSettingsChanges,
  usedGroupIds: number[] = [],
): Promise<boolean> => {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names: Record<string, string> = { '#version': 'settingsVersion' };
  const values: Record<string, unknown> = { ':next': (version ?? 0) + 1 };
  const sets = entries.map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  if (version !== undefined) values[':version'] = version;
  const update = {
    TableName: tableName('main'),
    Key: keys.realm(realmId),
    UpdateExpression: `SET ${[...sets, '#version = :next'].join(', ')}`,
    ConditionExpression:
      version === undefined ? 'attribute_exists(pk) AND attribute_not_exists(#version)' : 'attribute_exists(pk) AND #version = :version',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  if (usedGroupIds.length === 0) return sendConditional(new UpdateCommand(update));
  return (await sendTransaction([{ Update: update }, ...usedGroupIds.map((id) => buildUseGroupItem(realmId, id))])) === undefined;
};

/** Marks the organization deactivated (upstream's do_deactivate_realm); false if it already was. */
export const deactivate = async (realmId: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.realm(realmId),
      UpdateExpression: 'SET #deactivated = :true',
      ConditionExpression: 'attribute_exists(pk) AND #deactivated <> :true',
      ExpressionAttributeNames: { '#deactivated': 'deactivated' },
      ExpressionAttributeValues: { ':true': true },
    }),
  );
