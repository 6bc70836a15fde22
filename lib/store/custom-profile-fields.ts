// Custom profile fields (realm partition, FIELD#<id>) and users' values for them (user partition,
// PROFILE#<field id>). A field id of another organization is simply not under the caller's realm
// key, so it reads as missing. Every change of the field list (create, update, delete, reorder) is
// one transaction conditioned on the list's version item (FIELDVERSION) and raising it, so the
// checks that span the list (unique names, the profile-summary limit, a complete reorder) hold
// against concurrent changes.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomProfileField, FieldType, ProfileValue } from '../models/custom-profile-field';
import { documentClient, tableName } from './client';
import { batchDelete, batchGet, queryAll, queryPrefix, sendTransaction, type Item, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_PROFILE_VALUES, MAX_ORGANIZATION_SETTINGS_OBJECTS, MAX_ORGANIZATION_USERS } from './limits';

const toField = (item: Item): CustomProfileField => ({
  id: Number(item.id),
  realmId: Number(item.realmId),
  name: String(item.name),
  type: Number(item.type) as FieldType,
  order: Number(item.order),
  hint: String(item.hint ?? ''),
  fieldData: String(item.fieldData ?? ''),
  displayInProfileSummary: item.displayInProfileSummary === true,
  useForUserMatching: item.useForUserMatching === true,
  required: item.required === true,
  editableByUser: item.editableByUser !== false,
});

const toValue = (item: Item): ProfileValue => ({
  userId: Number(item.userId),
  fieldId: Number(item.fieldId),
  realmId: Number(item.realmId),
  value: String(item.value),
  ...(typeof item.renderedValue === 'string' ? { renderedValue: item.renderedValue } : {}),
});

/** The stored item of a profile value, with its realm-wide access path (register's user list). */
export const buildProfileValueItem = (v: ProfileValue): Item => ({
  ...entityKeys.profileValue(v.userId, v.fieldId),
  ...entityKeys.profileValueInRealm(v.realmId, v.userId, v.fieldId),
  ...entityKeys.profileValueOfField(v.realmId, v.fieldId, v.userId),
  userId: v.userId,
  fieldId: v.fieldId,
  realmId: v.realmId,
  value: v.value,
  ...(v.renderedValue !== undefined ? { renderedValue: v.renderedValue } : {}),
});

/** Every field of an organization, in display order. */
export const listFieldsOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<CustomProfileField[]> => {
  const k = entityKeys.customProfileField(realmId, 0);
  const fields = (await queryPrefix('main', k.pk, 'FIELD#', { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(toField);
  return fields.sort((a, b) => a.order - b.order || a.id - b.id);
};

/** The field list changed since it was read (its version moved on). */
export class FieldsChangedError extends Error {
  constructor() {
    super('the custom profile field list changed');
    this.name = 'FieldsChangedError';
  }
}

export type FieldList = { version: number; fields: CustomProfileField[] };

/** The organization's fields in display order, with the version they were read at (strongly consistent). */
export const readFieldList = async (realmId: number): Promise<FieldList> => {
  // The version first: a write between the two reads leaves the version stale, never newer.
  const head = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.customProfileFieldVersion(realmId), ConsistentRead: true }),
  );
  return { version: Number(head.Item?.version ?? 0), fields: await listFieldsOfRealm(realmId, { consistent: true }) };
};

export const buildFieldItem = (f: CustomProfileField): Item => ({
  ...entityKeys.customProfileField(f.realmId, f.id),
  id: f.id,
  realmId: f.realmId,
  name: f.name,
  type: f.type,
  order: f.order,
  hint: f.hint,
  fieldData: f.fieldData,
  displayInProfileSummary: f.displayInProfileSummary,
  useForUserMatching: f.useForUserMatching,
  required: f.required,
  editableByUser: f.editableByUser,
});

/** One change of the field list: fields to write whole, fields to delete (each must exist). */
export type FieldWrite = { put?: CustomProfileField[]; remove?: number[] };

/** The transaction for one change of the list read at `version` (at most MAX_TRANSACTION_ITEMS - 1 fields). */
export const buildFieldWriteInput = (realmId: number, version: number, write: FieldWrite): TransactItem[] => [
  {
    Update: {
      TableName: tableName('main'),
      Key: entityKeys.customProfileFieldVersion(realmId),
      UpdateExpression: 'SET #v = :next',
      ConditionExpression: 'attribute_not_exists(#v) OR #v = :expected',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':expected': version, ':next': version + 1 },
    },
  },
  ...(write.put ?? []).map((f): TransactItem => ({ Put: { TableName: tableName('main'), Item: buildFieldItem(f) } })),
  ...(write.remove ?? []).map((id): TransactItem => ({
    Delete: { TableName: tableName('main'), Key: entityKeys.customProfileField(realmId, id), ConditionExpression: 'attribute_exists(pk)' },
  })),
];

/** Applies a change to the list read at `version`; throws FieldsChangedError if it moved on. */
export const writeFields = async (realmId: number, version: number, write: FieldWrite): Promise<void> => {
  if (await sendTransaction(buildFieldWriteInput(realmId, version, write))) throw new FieldsChangedError();
};

/** Every user's value of one field (the index is eventually consistent): at most one per user. */
export const listValuesOfField = async (realmId: number, fieldId: number): Promise<ProfileValue[]> =>
  (
    await queryAll(
      {
        TableName: tableName('main'),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': entityKeys.valuesOfProfileField(realmId, fieldId).gsi2pk },
      },
      { max: MAX_ORGANIZATION_USERS },
    )
  ).map(toValue);

/** Deletes these values unconditionally (the values of a deleted field). */
export const deleteValues = async (values: Pick<ProfileValue, 'userId' | 'fieldId'>[]): Promise<void> =>
  batchDelete(
    'main',
    values.map((v) => entityKeys.profileValue(v.userId, v.fieldId)),
  );

/** The fields of an organization among these ids (ids of other organizations are left out). */
export const getFields = async (realmId: number, fieldIds: number[]): Promise<CustomProfileField[]> => {
  const ids = [...new Set(fieldIds)];
  if (ids.length === 0) return [];
  return (
    await batchGet(
      'main',
      ids.map((id) => entityKeys.customProfileField(realmId, id)),
    )
  ).map(toField);
};

/** Every value of every user of an organization (register's user list): one index query. */
export const listValuesOfRealm = async (realmId: number): Promise<ProfileValue[]> =>
  (
    await queryAll(
      {
        TableName: tableName('main'),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': entityKeys.profileValuesOfRealm(realmId).gsi1pk },
      },
      { max: MAX_ORGANIZATION_PROFILE_VALUES },
    )
  ).map(toValue);

/** A user's stored values for these fields (strongly consistent; fields without a value are left out). */
export const getValues = async (userId: number, fieldIds: number[]): Promise<ProfileValue[]> => {
  const ids = [...new Set(fieldIds)];
  if (ids.length === 0) return [];
  return (
    await batchGet(
      'main',
      ids.map((id) => entityKeys.profileValue(userId, id)),
      { consistent: true },
    )
  ).map(toValue);
};

/**
 * One value change, conditional on the value it replaces: `expected` is the stored value the
 * caller read (undefined: there was none); `next` is the new value, or null to delete it.
 */
export type ValueChange = { key: Omit<ProfileValue, 'value' | 'renderedValue'>; expected: string | undefined; next: ProfileValue | null };

export const buildValueChangesInput = (changes: ValueChange[]): TransactItem[] =>
  changes.map(({ key, expected, next }) => {
    const condition =
      expected === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#value = :expected',
            ExpressionAttributeNames: { '#value': 'value' },
            ExpressionAttributeValues: { ':expected': expected },
          };
    return next === null
      ? { Delete: { TableName: tableName('main'), Key: entityKeys.profileValue(key.userId, key.fieldId), ...condition } }
      : { Put: { TableName: tableName('main'), Item: buildProfileValueItem(next), ...condition } };
  });

/**
 * Applies value changes all together, each only if the stored value is still the one the caller
 * read. Returns false when another write got there first (nothing is written then: re-read and
 * retry). At most MAX_TRANSACTION_ITEMS changes.
 */
export const writeValueChanges = async (changes: ValueChange[]): Promise<boolean> => {
  if (changes.length === 0) return true;
  return (await sendTransaction(buildValueChangesInput(changes))) === undefined;
};
