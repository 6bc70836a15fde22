// Custom profile fields (realm partition, FIELD#<id>) and users' values for them (user partition,
// PROFILE#<field id>). A field id of another organization is simply not under the caller's realm
// key, so it reads as missing.
import type { CustomProfileField, FieldType, ProfileValue } from '../models/custom-profile-field';
import { tableName } from './client';
import { batchGet, queryAll, queryPrefix, sendTransaction, type Item, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_PROFILE_VALUES, MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

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
  userId: v.userId,
  fieldId: v.fieldId,
  realmId: v.realmId,
  value: v.value,
  ...(v.renderedValue !== undefined ? { renderedValue: v.renderedValue } : {}),
});

/** Every field of an organization, in display order. */
export const listFieldsOfRealm = async (realmId: number): Promise<CustomProfileField[]> => {
  const k = entityKeys.customProfileField(realmId, 0);
  const fields = (await queryPrefix('main', k.pk, 'FIELD#', { max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(toField);
  return fields.sort((a, b) => a.order - b.order || a.id - b.id);
};

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
