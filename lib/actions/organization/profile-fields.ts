// Custom profile field administration: list, create, update, delete and reorder the organization's
// fields, with upstream's checks, messages and events (zerver/views/custom_profile_fields.py,
// zerver/actions/custom_profile_fields.py). Every change is one transaction on the field list,
// conditioned on the list version its checks read (unique labels, the profile-summary limit, a
// complete reorder); when another change got in first, the checks run again on fresh data. Every
// change sends the whole list as `custom_profile_fields` to the organization.
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  FIELD_HINT_MAX_LENGTH,
  FIELD_NAME_MAX_LENGTH,
  FieldType,
  MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS,
  isDefaultExternalAccount,
  toApiField,
  type CustomProfileField,
} from '../../models/custom-profile-field';
import type { User } from '../../models/user';
import { allocateIds, MAX_TRANSACTION_ITEMS } from '../../store/common';
import * as fieldsStore from '../../store/custom-profile-fields';
import { MESSAGES } from '../../validation/messages';
import { dict, str, union, type Validator } from '../../validation/validators';
import { isValidUrl } from '../people/profile-data';
import { forAdministrators } from '../requiring';
import { retryLostRaces } from '../retry';

/** Upstream's ProfileFieldData: a JSON object whose values are strings or objects of strings. */
export type ProfileFieldData = Record<string, string | Record<string, string>>;

const stringDict: Validator<Record<string, string>> = (value, path) => {
  const d = dict(value, path);
  for (const [k, v] of Object.entries(d)) str(v, `${path}["${k}"]`);
  return d as Record<string, string>;
};

/**
 * Our bound on a field's stored field_data (upstream has none; its text column has no limit): the
 * field is one DynamoDB item of at most 400 KB, and every `custom_profile_fields` event carries
 * every field, so thousands of dropdown choices are refused with a 400 rather than failing the write.
 */
const FIELD_DATA_MAX_LENGTH = 50_000;

/** The `field_data` parameter (upstream's check_profile_field_data), within FIELD_DATA_MAX_LENGTH once encoded. */
export const profileFieldData: Validator<ProfileFieldData> = (value, path) => {
  const d = dict(value, path);
  for (const [k, v] of Object.entries(d)) union(stringDict, str)(v, `${path}["${k}"]`);
  if (JSON.stringify(d).length > FIELD_DATA_MAX_LENGTH) throw new BadRequestError(MESSAGES.tooLong(path, FIELD_DATA_MAX_LENGTH));
  return d as ProfileFieldData;
};

const FIELD_TYPE_IDS: readonly number[] = Object.values(FieldType);
const SUMMARY_LIMIT_MESSAGE = `Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`;
const fieldNotFound = (fieldId: number) => new BadRequestError(`Field id ${fieldId} not found.`);

/** Upstream's check_dict_only on `field_data`: required keys (each a non-blank string) in order, optional ones, nothing else. */
const checkDictOnly = (
  value: unknown,
  required: string[],
  optional: Record<string, (path: string, v: unknown) => void> = {},
): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequestError(MESSAGES.notDict('field_data'));
  const d = value as Record<string, unknown>;
  for (const key of required) {
    if (!(key in d)) throw new BadRequestError(`${key} key is missing from field_data`);
    const path = `field_data["${key}"]`;
    const s = str(d[key], path);
    if (s.trim() === '') throw new BadRequestError(`${path} cannot be blank.`);
  }
  for (const [key, check] of Object.entries(optional)) if (key in d) check(`field_data["${key}"]`, d[key]);
  const unexpected = Object.keys(d).filter((k) => !required.includes(k) && !(k in optional));
  if (unexpected.length > 0) throw new BadRequestError(`Unexpected arguments: ${unexpected.join(', ')}`);
  return d;
};

/** Upstream's check_external_account_url_pattern: one `%(username)s`, and a URL once it is filled in. */
const checkUrlPattern = (path: string, value: unknown): void => {
  const s = str(value, path);
  if (s.split('%(username)s').length !== 2) throw new BadRequestError("URL pattern must contain '%(username)s'.");
  if (!isValidUrl(s.replace('%(username)s', 'username'))) throw new BadRequestError(`${path} is not a URL`);
};

/** Upstream's validate_custom_field_data: a dropdown's choices, an external account's subtype. */
const validateFieldData = (type: number, data: ProfileFieldData): void => {
  if (type === FieldType.DROPDOWN) {
    const entries = Object.entries(data);
    if (entries.length < 1) throw new BadRequestError('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, choice] of entries) {
      if (key.trim() === '') throw new BadRequestError("'value' cannot be blank.");
      texts.add(checkDictOnly(choice, ['text', 'order']).text as string);
    }
    if (texts.size !== entries.length) throw new BadRequestError('Field must not have duplicate choices.');
  } else if (type === FieldType.EXTERNAL_ACCOUNT) {
    checkDictOnly(data, ['subtype'], { url_pattern: checkUrlPattern });
    if (!isDefaultExternalAccount(data.subtype) && (data.subtype as unknown) !== 'custom')
      throw new BadRequestError('Invalid external account type');
  }
};

/** An external account field of a ready-made subtype: its label and hint come from upstream's table. */
const isDefaultExternalField = (type: number, data: ProfileFieldData): boolean =>
  type === FieldType.EXTERNAL_ACCOUNT && data.subtype !== 'custom';

const codePoints = (s: string): number => [...s].length;

/** Upstream's validate_custom_profile_field, in its order. */
const validateField = (name: string, hint: string, type: number, data: ProfileFieldData, displayInProfileSummary: boolean): void => {
  validateFieldData(type, data);
  if (!isDefaultExternalField(type, data)) {
    if (name.trim() === '') throw new BadRequestError('Label cannot be blank.');
    if (codePoints(hint) > FIELD_HINT_MAX_LENGTH) throw new BadRequestError(MESSAGES.tooLong('hint', FIELD_HINT_MAX_LENGTH));
    if (codePoints(name) > FIELD_NAME_MAX_LENGTH) throw new BadRequestError(MESSAGES.tooLong('name', FIELD_NAME_MAX_LENGTH));
  }
  if (!FIELD_TYPE_IDS.includes(type)) throw new BadRequestError('Invalid field type.');
  // Users fields need client support upstream has not written yet.
  if (displayInProfileSummary && type === FieldType.USER)
    throw new BadRequestError('Field type not supported for display in profile summary.');
};

const checkSummaryLimit = (fields: CustomProfileField[], display: boolean | undefined, exceptId?: number): void => {
  if (!display) return;
  const shown = fields.filter((f) => f.displayInProfileSummary && f.id !== exceptId).length;
  if (shown >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) throw new BadRequestError(SUMMARY_LIMIT_MESSAGE);
};

/** Upstream's unique (realm, name): exact, case-sensitive. */
const checkLabelFree = (fields: CustomProfileField[], name: string, exceptId?: number): void => {
  if (fields.some((f) => f.name === name && f.id !== exceptId)) throw new BadRequestError('A field with that label already exists.');
};

/** A field's stored field_data as an object ({} for ""), as upstream's validation reads it. */
const parsedFieldData = (f: CustomProfileField): ProfileFieldData =>
  f.fieldData === '' ? {} : (JSON.parse(f.fieldData) as ProfileFieldData);

/** Runs `attempt` on a fresh read of the list until its write is not overtaken by another change. */
const withFieldList = <T>(realmId: number, attempt: (list: fieldsStore.FieldList) => Promise<T>): Promise<T> =>
  retryLostRaces(
    async () => attempt(await fieldsStore.readFieldList(realmId)),
    (error) => error instanceof fieldsStore.FieldsChangedError,
  );

/** `custom_profile_fields` with every field in display order, to the organization. */
const notifyFields = async (realmId: number, fields: CustomProfileField[]): Promise<void> => {
  const ordered = [...fields].sort((a, b) => a.order - b.order || a.id - b.id);
  await sendEvent(realmId, { type: 'custom_profile_fields', fields: ordered.map(toApiField) }, 'realm');
};

/** GET /realm/profile_fields: the organization's fields in display order (any user of it). */
export const listCustomProfileFields = async (user: User): Promise<Record<string, unknown>[]> =>
  (await fieldsStore.listFieldsOfRealm(user.realmId)).map(toApiField);

export type NewFieldRequest = {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: ProfileFieldData;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
};

/**
 * POST /realm/profile_fields, for administrators. Upstream's order: the profile-summary limit,
 * the field data of the type, the label and hint (not for a ready-made external account, whose
 * label and hint come from upstream's table), the type, the summary support of the type, then a
 * unique label. The field goes last in the display order (order = its id, as upstream). Sends the
 * list; returns the new id.
 */
export const checkAddCustomProfileField = forAdministrators(async (user: User, req: NewFieldRequest): Promise<number> => {
  const name = req.name.trim();
  const defaultAccount = isDefaultExternalField(req.fieldType, req.fieldData);
  let id: number | undefined;
  const fields = await withFieldList(user.realmId, async ({ version, fields: current }) => {
    checkSummaryLimit(current, req.displayInProfileSummary);
    validateField(name, req.hint, req.fieldType, req.fieldData, req.displayInProfileSummary);
    const preset = defaultAccount ? DEFAULT_EXTERNAL_ACCOUNTS[req.fieldData.subtype as string] : undefined;
    const label = preset ? preset.name : name;
    checkLabelFree(current, label);
    id ??= await allocateIds('customProfileField');
    const withData = req.fieldType === FieldType.DROPDOWN || req.fieldType === FieldType.EXTERNAL_ACCOUNT;
    const field: CustomProfileField = {
      id,
      realmId: user.realmId,
      name: label,
      type: req.fieldType as FieldType,
      order: id,
      hint: preset ? preset.hint : req.hint,
      fieldData: preset ? JSON.stringify({ subtype: req.fieldData.subtype }) : withData ? JSON.stringify(req.fieldData) : '',
      displayInProfileSummary: req.displayInProfileSummary,
      useForUserMatching: false,
      required: req.required,
      editableByUser: req.editableByUser,
    };
    await fieldsStore.writeFields(user.realmId, version, { put: [field] });
    return [...current, field];
  });
  await notifyFields(user.realmId, fields);
  return id!;
});

/** What PATCH /realm/profile_fields/{id} may change; absent keys stay. */
export type FieldUpdateRequest = {
  name?: string;
  hint?: string;
  fieldData?: ProfileFieldData;
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
};

const sameData = (a: ProfileFieldData, b: ProfileFieldData): boolean => {
  const canonical = (d: unknown): unknown =>
    typeof d === 'object' && d !== null
      ? Object.fromEntries(
          Object.entries(d)
            .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : d;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
};

/**
 * PATCH /realm/profile_fields/{id}, for administrators. Upstream's order: the field must be the
 * organization's ("Field id N not found."), the profile-summary limit (other fields), a ready-made
 * external account may change only its summary and flags ("Default custom field cannot be
 * updated."), then creation's validation on the merged field, then a unique label. Narrowing a
 * dropdown's choices removes the values that chose a removed one, with one `realm_user` update per
 * user. Sends the list (always, as upstream).
 */
export const checkUpdateCustomProfileField = forAdministrators(
  async (user: User, fieldId: number, req: FieldUpdateRequest): Promise<void> => {
    const name = req.name?.trim();
    const { fields, before, after } = await withFieldList(user.realmId, async ({ version, fields: current }) => {
      const field = current.find((f) => f.id === fieldId);
      if (!field) throw fieldNotFound(fieldId);
      checkSummaryLimit(current, req.displayInProfileSummary, field.id);
      const stored = parsedFieldData(field);
      if (
        isDefaultExternalField(field.type, stored) &&
        ((name !== undefined && name !== field.name) ||
          (req.hint !== undefined && req.hint !== field.hint) ||
          (req.fieldData !== undefined && !sameData(req.fieldData, stored)))
      ) {
        throw new BadRequestError('Default custom field cannot be updated.');
      }
      const merged = {
        name: name ?? field.name,
        hint: req.hint ?? field.hint,
        data: req.fieldData ?? stored,
        display: req.displayInProfileSummary ?? field.displayInProfileSummary,
      };
      validateField(merged.name, merged.hint, field.type, merged.data, merged.display);
      checkLabelFree(current, merged.name, field.id);
      const withData = field.type === FieldType.DROPDOWN || field.type === FieldType.EXTERNAL_ACCOUNT;
      const updated: CustomProfileField = {
        ...field,
        name: merged.name,
        hint: merged.hint,
        displayInProfileSummary: merged.display,
        required: req.required ?? field.required,
        editableByUser: req.editableByUser ?? field.editableByUser,
        fieldData:
          withData && (req.fieldData !== undefined || field.fieldData === '') ? JSON.stringify(req.fieldData ?? {}) : field.fieldData,
      };
      await fieldsStore.writeFields(user.realmId, version, { put: [updated] });
      return { fields: current.map((f) => (f.id === fieldId ? updated : f)), before: field, after: updated };
    });
    if (after.type === FieldType.DROPDOWN && req.fieldData !== undefined) await removeDroppedChoices(user.realmId, before, after);
    await notifyFields(user.realmId, fields);
  },
);

/**
 * Upstream's remove_custom_profile_field_value_if_required: the values of choices a dropdown no
 * longer has are removed, each only if it still holds that choice, with a `realm_user` update
 * (value null) to the organization per removed value.
 */
const removeDroppedChoices = async (realmId: number, before: CustomProfileField, after: CustomProfileField): Promise<void> => {
  const kept = new Set(Object.keys(parsedFieldData(after)));
  const dropped = Object.keys(parsedFieldData(before)).filter((choice) => !kept.has(choice));
  if (dropped.length === 0) return;
  const stale = (await fieldsStore.listValuesOfField(realmId, after.id)).filter((v) => dropped.includes(v.value));
  for (const value of stale) {
    const key = { userId: value.userId, fieldId: value.fieldId, realmId };
    // A user who picked another choice meanwhile keeps it.
    if (!(await fieldsStore.writeValueChanges([{ key, expected: value.value, next: null }]))) continue;
    await sendEvent(
      realmId,
      { type: 'realm_user', op: 'update', person: { user_id: value.userId, custom_profile_field: { id: after.id, value: null } } },
      'realm',
    );
  }
};

/**
 * DELETE /realm/profile_fields/{id}, for administrators: "Field id N not found." unless it is the
 * organization's. Deletes the field, sends the list, then deletes every user's value of it (no
 * `realm_user` events, as upstream's cascade). A value the sweep misses (written in the same
 * moment, or not yet in the index) belongs to no field: nothing reads it.
 */
export const checkRemoveCustomProfileField = forAdministrators(async (user: User, fieldId: number): Promise<void> => {
  const fields = await withFieldList(user.realmId, async ({ version, fields: current }) => {
    if (!current.some((f) => f.id === fieldId)) throw fieldNotFound(fieldId);
    await fieldsStore.writeFields(user.realmId, version, { remove: [fieldId] });
    return current.filter((f) => f.id !== fieldId);
  });
  await notifyFields(user.realmId, fields);
  await fieldsStore.deleteValues(await fieldsStore.listValuesOfField(user.realmId, fieldId));
});

/**
 * PATCH /realm/profile_fields, for administrators. Upstream's try_reorder_realm_custom_profile_fields:
 * every field of the organization must be in `order` ("Invalid order mapping."); each field's order
 * becomes its position (the last one for an id listed twice; ids that are no field are ignored).
 * Writes the changed orders in one transaction with the list version; sends the list.
 */
export const checkReorderCustomProfileFields = forAdministrators(async (user: User, order: number[]): Promise<void> => {
  const position = new Map(order.map((id, i) => [id, i]));
  const fields = await withFieldList(user.realmId, async ({ version, fields: current }) => {
    if (current.some((f) => !position.has(f.id))) throw new BadRequestError('Invalid order mapping.');
    const reordered = current.map((f) => ({ ...f, order: position.get(f.id)! }));
    const changed = reordered.filter((f, i) => f.order !== current[i].order);
    if (changed.length > MAX_TRANSACTION_ITEMS - 1) {
      throw new BadRequestError(`Too many custom profile fields to reorder at once (limit: ${MAX_TRANSACTION_ITEMS - 1})`);
    }
    await fieldsStore.writeFields(user.realmId, version, { put: changed });
    return reordered;
  });
  await notifyFields(user.realmId, fields);
});
