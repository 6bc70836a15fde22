// A user's own values for the organization's custom profile fields (PATCH and DELETE
// /users/me/profile_data): upstream's checks and messages, all-or-nothing writes, and one
// `realm_user` `update` event per changed field to the whole organization.
import { accessActiveUsers } from '../../access/users';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { renderPlainMarkdown } from '../../render';
import { FieldType, isRenderable, type CustomProfileField, type ProfileValue } from '../../models/custom-profile-field';
import type { Realm } from '../../models/realm';
import { isAdmin, type User } from '../../models/user';
import { MAX_TRANSACTION_ITEMS } from '../../store/common';
import * as fieldsStore from '../../store/custom-profile-fields';
import { int, list, nullable, object, str, string, union, type Infer } from '../../validation/validators';
import { LostRaceError, retryLostRaces } from '../retry';
import { forHumans } from '../requiring';

/** One item of PATCH's `data` (upstream's TypedDict: extra keys are ignored; `null` removes). */
export const profileDataItem = object({ id: int, value: nullable(union(str, list(int))) }, { allowExtra: true });
export type ProfileDataItem = Infer<typeof profileDataItem>;

const RESTRICTED = 'You are not allowed to change this field. Contact an administrator to update it.';
const SHORT_TEXT_MAX = 50;
const PARAGRAPH_MAX = 500;

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Upstream's check_date: exactly YYYY-MM-DD, and a real calendar day. */
const isValidDate = (text: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= DAYS_IN_MONTH[month - 1] + (month === 2 && isLeapYear(year) ? 1 : 0);
};

// Django's URLValidator, reduced to its grammar: scheme, optional user:password@, a host
// (localhost, IPv4, [IPv6], or a dotted name with a top-level domain), optional port, then a path.
const LABEL = '[a-z0-9\\u00a1-\\uffff](?:[a-z0-9\\u00a1-\\uffff-]{0,61}[a-z0-9\\u00a1-\\uffff])?';
const TLD = '(?:[a-z\\u00a1-\\uffff](?:[a-z\\u00a1-\\uffff-]{0,61}[a-z\\u00a1-\\uffff])|xn--[a-z0-9]{1,59})';
const URL_PATTERN = new RegExp(
  `^(?:https?|ftps?)://(?:[^\\s:@/]+(?::[^\\s:@/]*)?@)?` +
    `(?:localhost|(?:\\d{1,3}\\.){3}\\d{1,3}|\\[[0-9a-f:.]+\\]|(?:${LABEL}\\.)+${TLD}\\.?)` +
    `(?::\\d{1,5})?(?:[/?#]\\S*)?$`,
  'i',
);
/** Django's URLValidator (as upstream's check_url): profile values of Link fields, external account URL patterns. */
export const isValidUrl = (text: string): boolean => {
  if (text.length > 2048 || !URL_PATTERN.test(text)) return false;
  const ipv4 = /^[a-z]+:\/\/(?:[^@/]*@)?((?:\d{1,3}\.){3}\d{1,3})(?:[:/?#]|$)/i.exec(text);
  return !ipv4 || ipv4[1].split('.').every((octet) => Number(octet) <= 255);
};

/** Upstream's check_valid_user_ids: ids of active, non-bot users of the organization. */
const checkUserIds = async (realmId: number, value: unknown): Promise<number[]> => {
  const ids = list(int)(value, 'User IDs');
  await accessActiveUsers(realmId, ids, {
    unknown: (unknown) => new BadRequestError(`Invalid user IDs: ${unknown.join(', ')}`),
    deactivated: (u) => new BadRequestError(`User with ID ${u.id} is deactivated`),
    bot: (u) => new BadRequestError(`User with ID ${u.id} is a bot`),
  });
  return ids;
};

/** Checks a value against its field's type (upstream's messages name the field); returns it as stored. */
const checkFieldValue = async (field: CustomProfileField, value: string | number[]): Promise<string> => {
  const name = field.name;
  switch (field.type) {
    case FieldType.SHORT_TEXT:
    case FieldType.EXTERNAL_ACCOUNT:
    case FieldType.PRONOUNS:
      return string({ maxLength: SHORT_TEXT_MAX })(value, name);
    case FieldType.PARAGRAPH:
      return string({ maxLength: PARAGRAPH_MAX })(value, name);
    case FieldType.DATE:
      if (!isValidDate(str(value, name))) throw new BadRequestError(`${name} is not a date`);
      return value as string;
    case FieldType.URL:
      if (!isValidUrl(str(value, name))) throw new BadRequestError(`${name} is not a URL`);
      return value as string;
    case FieldType.DROPDOWN: {
      const choice = str(value, name);
      const choices = JSON.parse(field.fieldData || '{}') as Record<string, unknown>;
      if (!Object.prototype.hasOwnProperty.call(choices, choice))
        throw new BadRequestError(`'${choice}' is not a valid choice for '${name}'.`);
      return choice;
    }
    case FieldType.USER:
      return JSON.stringify(await checkUserIds(field.realmId, value));
    default:
      throw new Error(`unknown custom profile field type ${String(field.type)}`);
  }
};

/** A field named by the request, checked in upstream's order: exists here, then editable by this user. */
const checkFieldAccess = (user: User, fields: Map<number, CustomProfileField>, fieldId: number): CustomProfileField => {
  const field = fields.get(fieldId);
  if (!field) throw new BadRequestError(`Field id ${fieldId} not found.`);
  if (!isAdmin(user) && !field.editableByUser) throw new BadRequestError(RESTRICTED);
  return field;
};

/** The new value of each field (null: remove), the last one winning when a field is named twice. */
type Target = { field: CustomProfileField; next: string | null };

/**
 * Writes the targets with compare-and-set against the stored values (re-reading after a
 * concurrent change), skipping unchanged ones, then sends one event per changed field.
 */
const doUpdateValues = async (user: User, realm: Realm, targets: Target[]): Promise<void> => {
  if (targets.length > MAX_TRANSACTION_ITEMS) {
    throw new BadRequestError(`Too many profile fields in one request (limit: ${MAX_TRANSACTION_ITEMS})`);
  }
  const changes = await retryLostRaces(async () => {
    const stored = new Map(
      (
        await fieldsStore.getValues(
          user.id,
          targets.map((t) => t.field.id),
        )
      ).map((v) => [v.fieldId, v]),
    );
    const changes: fieldsStore.ValueChange[] = [];
    for (const { field, next } of targets) {
      const before = stored.get(field.id)?.value;
      if (next === null ? before === undefined : before === next) continue;
      const key = { userId: user.id, fieldId: field.id, realmId: realm.id };
      const value: ProfileValue | null =
        next === null ? null : { ...key, value: next, ...(isRenderable(field.type) ? { renderedValue: renderPlainMarkdown(next) } : {}) };
      changes.push({ key, expected: before, next: value });
    }
    // A value changed since it was read: read and compare again.
    if (!(await fieldsStore.writeValueChanges(changes))) throw new LostRaceError();
    return changes;
  });
  for (const { key, next } of changes) {
    const customProfileField =
      next === null
        ? { id: key.fieldId, value: null }
        : { id: key.fieldId, value: next.value, ...(next.renderedValue ? { rendered_value: next.renderedValue } : {}) };
    await sendEvent(
      realm.id,
      { type: 'realm_user', op: 'update', person: { user_id: user.id, custom_profile_field: customProfileField } },
      'realm',
    );
  }
};

/**
 * PATCH /users/me/profile_data. Bots are refused first (forHumans). Checks every item before writing anything, in upstream's order
 * (field of this organization, editable unless the caller is an administrator, value valid for
 * the field's type); `value: null` removes the value. Then writes all changes in one transaction
 * and sends one `realm_user` `update` event per field whose value changed, to the organization.
 */
export const checkUpdateProfileData = forHumans(async (user: User, realm: Realm, items: ProfileDataItem[]): Promise<void> => {
  const fields = new Map(
    (
      await fieldsStore.getFields(
        user.realmId,
        items.map((i) => i.id),
      )
    ).map((f) => [f.id, f]),
  );
  const targets = new Map<number, Target>();
  for (const item of items) {
    const field = checkFieldAccess(user, fields, item.id);
    const next = item.value === null ? null : await checkFieldValue(field, item.value);
    targets.delete(field.id);
    targets.set(field.id, { field, next });
  }
  await doUpdateValues(user, realm, [...targets.values()]);
});

/**
 * DELETE /users/me/profile_data. Bots are refused first (forHumans). Checks every field id (exists, editable), then removes the
 * caller's values for them; a field without a value is skipped silently. One event per removed value.
 */
export const checkRemoveProfileData = forHumans(async (user: User, realm: Realm, fieldIds: number[]): Promise<void> => {
  const fields = new Map((await fieldsStore.getFields(user.realmId, fieldIds)).map((f) => [f.id, f]));
  const targets = new Map<number, Target>();
  for (const id of fieldIds) targets.set(id, { field: checkFieldAccess(user, fields, id), next: null });
  await doUpdateValues(user, realm, [...targets.values()]);
});

/**
 * PATCH /users/{user_id}'s profile_data (upstream's update_user_backend): an administrator (or a
 * bot's owner, whom the caller's access check let through) sets another user's values. Every
 * item is checked before anything is written, as for one's own (field of this organization,
 * editable unless the caller is an administrator, value valid for the field's type); a null or
 * empty value removes the value. Then doUpdateValues for the target: one transaction and one
 * `realm_user` `update` event per changed field, to the organization.
 */
export const checkUpdateProfileDataOf = async (caller: User, target: User, realm: Realm, items: ProfileDataItem[]): Promise<void> => {
  const fields = new Map(
    (
      await fieldsStore.getFields(
        caller.realmId,
        items.map((i) => i.id),
      )
    ).map((f) => [f.id, f]),
  );
  const targets = new Map<number, Target>();
  for (const item of items) {
    const field = checkFieldAccess(caller, fields, item.id);
    const empty = item.value === null || item.value.length === 0;
    const next = empty ? null : await checkFieldValue(field, item.value!);
    targets.delete(field.id);
    targets.set(field.id, { field, next });
  }
  await doUpdateValues(target, realm, [...targets.values()]);
};
