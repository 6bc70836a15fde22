import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Realm } from '../models/realm';
import type { RealmImage } from '../models/realm-images';
import { documentClient, tableName } from './client';
import { batchGet, getByGsi1Key, sendConditional, sendTransaction, stripKeys, type Item } from './common';
import { buildUseGroupItem } from './user-groups';
import { keys, lookupKey } from './keys';

/** Organizations created by lib/actions/way-in/create-realm.ts get ids from this one on (the development data set's are below it; 1 is the system bots'). */
export const FIRST_CREATED_REALM_ID = 100;

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

/** The most organizations a process keeps read by getRecent (the oldest is dropped past it). */
const RECENT_MAX = 10_000;
const recent = new Map<number, { realm: Promise<Realm | undefined>; expiresMs: number }>();

/**
 * The organization as this process read it less than `maxAgeMs` ago (concurrent callers share one
 * read; a failed read is not kept), for checks made on every long-poll. A change written by this
 * process (setDeactivated) is seen at once; another process's within `maxAgeMs`.
 */
export const getRecent = (realmId: number, maxAgeMs: number, nowMs: number): Promise<Realm | undefined> => {
  const hit = recent.get(realmId);
  if (hit && hit.expiresMs > nowMs) return hit.realm;
  const entry = { realm: get(realmId), expiresMs: nowMs + maxAgeMs };
  recent.delete(realmId);
  recent.set(realmId, entry);
  entry.realm.catch(() => {
    if (recent.get(realmId) === entry) recent.delete(realmId);
  });
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  return entry.realm;
};

/** Test-only: forgets what getRecent read. */
export const forgetRecent = (): void => recent.clear();

/** The organization served at a subdomain (its string_id); none for one too long for a key. */
export const getByStringId = async (stringId: string): Promise<Realm | undefined> => {
  const k = lookupKey(() => keys.realmByName(stringId));
  if (!k) return undefined;
  const item = await getByGsi1Key(k);
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
    | 'newStreamAnnouncementsStreamId'
    | 'signupAnnouncementsStreamId'
    | 'zulipUpdateAnnouncementsStreamId'
    | 'moderationRequestChannelId'
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

/**
 * Sets one of the organization's images (its icon or a logo: `attribute`, REALM_IMAGE_ATTRIBUTE)
 * if its version is still `fromVersion` (an image never changed has none, and is version 1);
 * false when another change came first.
 */
export const setImage = async (
  realmId: number,
  attribute: 'icon' | 'logo' | 'nightLogo',
  image: RealmImage,
  fromVersion: number,
): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.realm(realmId),
      UpdateExpression: 'SET #image = :image',
      ConditionExpression: `attribute_exists(pk) AND (#image.#version = :from${fromVersion === 1 ? ' OR attribute_not_exists(#image)' : ''})`,
      ExpressionAttributeNames: { '#image': attribute, '#version': 'version' },
      ExpressionAttributeValues: { ':image': image, ':from': fromVersion },
    }),
  );

/**
 * Unsets an organization setting that names a channel (`attribute`, REALM_CHANNEL_SETTINGS) if it
 * is still `channelId` (the channel was archived); false when it was another channel or none.
 */
export const clearChannelSetting = (realmId: number, attribute: string, channelId: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.realm(realmId),
      UpdateExpression: 'SET #c = :none',
      ConditionExpression: 'attribute_exists(pk) AND #c = :id',
      ExpressionAttributeNames: { '#c': attribute },
      ExpressionAttributeValues: { ':none': null, ':id': channelId },
    }),
  );

/**
 * Marks an organization deactivated (or active again) if it is not already: false when it was
 * (also for a concurrent change that came first) or does not exist.
 */
export const setDeactivated = async (realmId: number, deactivated: boolean): Promise<boolean> => {
  recent.delete(realmId);
  const changed = await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.realm(realmId),
      UpdateExpression: 'SET deactivated = :to',
      // An organization stored without the flag is active.
      ConditionExpression: deactivated
        ? 'attribute_exists(pk) AND (attribute_not_exists(deactivated) OR deactivated = :from)'
        : 'deactivated = :from',
      ExpressionAttributeValues: { ':to': deactivated, ':from': !deactivated },
    }),
  );
  recent.delete(realmId);
  return changed;
};

/**
 * Every organization, by id, for operator commands: the ids up to the realm counter's value (and
 * the development data set's, below the first created one, lib/actions/way-in/create-realm.ts) read by
 * key in batches of 100. No Scan, and no index is needed by any request.
 */
export const listAllForOperator = async (): Promise<Realm[]> => {
  const counter = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: keys.counter('realm'), ConsistentRead: true }),
  );
  const highest = Math.max(FIRST_CREATED_REALM_ID - 1, Number(counter.Item?.value ?? 0));
  const ids = Array.from({ length: highest }, (_, i) => i + 1);
  const items = await batchGet(
    'main',
    ids.map((id) => keys.realm(id)),
    { consistent: true },
  );
  return items.map(toRealm).sort((a, b) => a.id - b.id);
};
