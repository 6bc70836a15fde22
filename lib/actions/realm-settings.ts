// PATCH /realm: the organization settings this service stores and honours, with upstream's checks,
// messages, answer and events (zerver/views/realm.py update_realm,
// zerver/actions/realm_settings.py do_set_realm_property). Every check runs before anything is
// written, and all the changes of one request are one conditional write on the organization's
// settings version, so a request changes everything it asked for or nothing.
import { requireRealmOwner } from '../access/roles';
import { BadRequestError } from '../errors';
import { sendEvent } from '../events/send';
import type { RealmEvent } from '../models/event';
import { languageName } from '../models/language';
import { messageEditSettings, type MessageEditSettings } from '../models/message-edit';
import { readReceiptsEnabled, realmDefaultLanguage, type Realm } from '../models/realm';
import type { User } from '../models/user';
import * as realmsStore from '../store/realms';
import { forAdministrators } from './requiring';
import { LostRaceError, retryLostRaces } from './retry';
import { MESSAGES } from '../validation/messages';

/** A time limit as sent: seconds, or "unlimited". */
type TimeLimitParam = unknown;

/** The settings a request may change, each already type-checked by the handler (absent: unchanged). */
export type RealmSettingsRequest = {
  name?: string;
  description?: string;
  enable_read_receipts?: boolean;
  enable_spectator_access?: boolean;
  waiting_period_threshold?: number;
  default_language?: string;
  allow_message_editing?: boolean;
  message_content_edit_limit_seconds?: TimeLimitParam;
  message_content_delete_limit_seconds?: TimeLimitParam;
  move_messages_within_stream_limit_seconds?: TimeLimitParam;
  move_messages_between_streams_limit_seconds?: TimeLimitParam;
};

type SettingName = keyof RealmSettingsRequest;
type SettingValue = string | number | boolean | null;

/**
 * Each served setting: its current value, the stored change that sets it, and whether upstream
 * sends it as `update_dict` (do_set_realm_property's historical message edit settings).
 */
type SettingSpec = {
  current: (realm: Realm) => SettingValue;
  store: (value: SettingValue) => Omit<realmsStore.RealmSettingsChanges, 'messageEditSettings'> | { edit: Partial<MessageEditSettings> };
  updateDict?: true;
  /** Seconds or "unlimited" (parseTimeLimit). */
  timeLimit?: true;
};

/** A setting kept in the organization's message edit settings. */
const editSetting = (key: keyof MessageEditSettings, flags: Pick<SettingSpec, 'updateDict' | 'timeLimit'> = {}): SettingSpec => ({
  current: (realm) => messageEditSettings(realm)[key],
  store: (value) => ({ edit: { [key]: value } }),
  ...flags,
});

/** A setting kept as a field of the organization. */
const realmField = (key: 'name' | 'description' | 'enableSpectatorAccess' | 'waitingPeriodThreshold'): SettingSpec => ({
  current: (realm) => realm[key],
  store: (value) => ({ [key]: value }),
});

// Upstream's order: the time limits first (update_realm sets them before the others), then the
// rest (upstream goes through Realm.property_types; here alphabetically).
const SETTINGS: Record<SettingName, SettingSpec> = {
  message_content_delete_limit_seconds: editSetting('messageContentDeleteLimitSeconds', { timeLimit: true }),
  message_content_edit_limit_seconds: editSetting('messageContentEditLimitSeconds', { timeLimit: true, updateDict: true }),
  move_messages_within_stream_limit_seconds: editSetting('moveMessagesWithinStreamLimitSeconds', { timeLimit: true }),
  move_messages_between_streams_limit_seconds: editSetting('moveMessagesBetweenStreamsLimitSeconds', { timeLimit: true }),
  allow_message_editing: editSetting('allowMessageEditing', { updateDict: true }),
  default_language: { current: realmDefaultLanguage, store: (value) => ({ defaultLanguage: value as string }) },
  description: realmField('description'),
  enable_read_receipts: { current: readReceiptsEnabled, store: (value) => ({ enableReadReceipts: value as boolean }) },
  enable_spectator_access: realmField('enableSpectatorAccess'),
  name: realmField('name'),
  waiting_period_threshold: realmField('waitingPeriodThreshold'),
};

const MAX_TIME_LIMIT_SECONDS = 2 ** 31 - 1;

/**
 * Upstream's parse_message_time_limit_setting: "unlimited" is no limit (null), a positive number
 * of seconds is the limit; anything else is "Bad value for '<setting>': <value>".
 */
const parseTimeLimit = (setting: string, value: unknown): number | null => {
  if (value === 'unlimited') return null;
  // Upstream stores the limit in a PositiveIntegerField (at most 2^31 − 1); past it, and past what
  // a JSON number holds exactly, the value is out of range.
  if (typeof value === 'number' && Number.isInteger(value) && value > MAX_TIME_LIMIT_SECONDS)
    throw new BadRequestError(MESSAGES.tooLarge(setting));
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new BadRequestError(`Bad value for '${setting}': ${typeof value === 'string' ? value : JSON.stringify(value)}`);
};

/** The requested values, checked as upstream checks them beyond their types, in its order. */
const checkRequest = (user: User, request: RealmSettingsRequest): Partial<Record<SettingName, SettingValue>> => {
  const language = request.default_language;
  if (language !== undefined && languageName(language) === undefined) throw new BadRequestError(`Invalid language '${language}'`);
  if (request.waiting_period_threshold !== undefined) requireRealmOwner(user);
  const values: Partial<Record<SettingName, SettingValue>> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const raw = request[name];
    if (raw === undefined) continue;
    values[name] = SETTINGS[name].timeLimit ? parseTimeLimit(name, raw) : (raw as SettingValue);
  }
  return values;
};

/** The stored form of a set of changed settings on `realm`. */
const storedChanges = (realm: Realm, changed: [SettingName, SettingValue][]): realmsStore.RealmSettingsChanges => {
  const out: realmsStore.RealmSettingsChanges = {};
  let edit: Partial<MessageEditSettings> | undefined;
  for (const [name, value] of changed) {
    const change = SETTINGS[name].store(value);
    if ('edit' in change) edit = { ...(edit ?? realm.messageEditSettings ?? {}), ...change.edit };
    else Object.assign(out, change);
  }
  return edit ? { ...out, messageEditSettings: edit } : out;
};

const eventFor = (name: SettingName, value: SettingValue): RealmEvent =>
  SETTINGS[name].updateDict
    ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
    : { type: 'realm', op: 'update', property: name, value };

/**
 * PATCH /realm, for administrators; waiting_period_threshold for owners only ("Must be an
 * organization owner"). Checks every value first (an unknown language: "Invalid language 'xx'";
 * a time limit that is neither positive nor "unlimited": "Bad value for '…': …"), then writes the
 * settings whose value differs from the stored one in one conditional write (retried on a fresh
 * read when another change came first), then sends one `realm` event per changed setting to the
 * whole organization. Returns upstream's answer data: each changed setting with its new value,
 * or "updated" for a text setting.
 */
export const checkUpdateRealm = forAdministrators(async (user: User, request: RealmSettingsRequest): Promise<Record<string, unknown>> => {
  const values = checkRequest(user, request);
  const changed = await retryLostRaces(async () => {
    const realm = await realmsStore.get(user.realmId, { consistent: true });
    if (!realm) throw new Error(`organization ${user.realmId} is gone`);
    const differing = (Object.entries(values) as [SettingName, SettingValue][]).filter(
      ([name, value]) => SETTINGS[name].current(realm) !== value,
    );
    if (differing.length === 0) return differing;
    if (!(await realmsStore.updateSettings(realm.id, realm.settingsVersion, storedChanges(realm, differing)))) throw new LostRaceError();
    return differing;
  });
  for (const [name, value] of changed) await sendEvent(user.realmId, eventFor(name, value), 'realm');
  return Object.fromEntries(changed.map(([name, value]) => [name, typeof value === 'string' ? 'updated' : value]));
});
