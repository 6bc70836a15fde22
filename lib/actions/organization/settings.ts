// PATCH /realm: the organization settings this service stores and honours, with upstream's checks,
// messages, answer and events (zerver/views/realm.py update_realm,
// zerver/actions/realm_settings.py do_set_realm_property). Every check runs before anything is
// written, and all the changes of one request are one conditional write on the organization's
// settings version, so a request changes everything it asked for or nothing.
import { accessChannelMetadataById } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { requireRealmOwner } from '../../access/roles';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent } from '../../events/send';
import type { RealmEvent } from '../../models/event';
import { languageName } from '../../models/language';
import { messageEditSettings, type MessageEditSettings } from '../../models/message-edit';
import {
  readReceiptsEnabled,
  REALM_CHANNEL_SETTINGS,
  REALM_GROUP_SETTINGS,
  REALM_OWNER_ONLY_SETTINGS,
  REALM_PROPERTIES,
  realmChannelSetting,
  realmDefaultLanguage,
  realmProperty,
  VIDEO_CHAT_PROVIDERS,
  type GroupSettingValue,
  type Realm,
  type RealmChannelSettingName,
  type RealmPropertyName,
  type RealmPropertyValue,
} from '../../models/realm';
import type { User } from '../../models/user';
import { realmGroupSetting, toApiGroupSettingValue } from '../../models/user-group';
import { realmUserSettingsDefaults } from '../../models/user-settings';
import * as realmsStore from '../../store/realms';
import { forAdministrators, forOwners } from '../requiring';
import { checkSettingValues, type SettingValue as UserSettingValue } from '../people/settings';
import { LostRaceError, retryLostRaces } from '../retry';
import {
  checkGroupSettingValue,
  groupsUsedBy,
  normalizeSettingValue,
  sameSettingValue,
  usedNonSystemGroups,
  type SettingChange,
} from '../groups/manage';
import { MESSAGES } from '../../validation/messages';

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
  /** The channel-valued settings (REALM_CHANNEL_SETTINGS): a channel's id, or -1 for none. */
  moderation_request_channel_id?: number;
  new_stream_announcements_stream_id?: number;
  signup_announcements_stream_id?: number;
  zulip_update_announcements_stream_id?: number;
  /** The simple settings of REALM_PROPERTIES, by wire name. */
  properties?: Partial<Record<RealmPropertyName, RealmPropertyValue>>;
  /** Group-setting changes ({new, old?}) of REALM_GROUP_SETTINGS, by wire name. */
  groupSettings?: Partial<Record<string, SettingChange>>;
};

type FieldName = Exclude<keyof RealmSettingsRequest, 'properties' | 'groupSettings'>;
type SettingName = FieldName | RealmPropertyName;
type SettingValue = string | number | boolean | null;

type StoredChange =
  | Omit<realmsStore.RealmSettingsChanges, 'messageEditSettings' | 'properties' | 'groupSettings'>
  | { edit: Partial<MessageEditSettings> }
  | { property: Partial<Record<RealmPropertyName, RealmPropertyValue>> };

/**
 * Each served setting: its current value, the stored change that sets it, and whether upstream
 * sends it as `update_dict` (do_set_realm_property's historical message edit settings).
 */
type SettingSpec = {
  current: (realm: Realm) => SettingValue;
  store: (value: SettingValue) => StoredChange;
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

/** A setting that names a channel (REALM_CHANNEL_SETTINGS), -1 for none (stored as null). */
const channelSetting = (name: RealmChannelSettingName): SettingSpec => ({
  current: (realm) => realmChannelSetting(realm, name),
  store: (value) => ({ [REALM_CHANNEL_SETTINGS[name]]: (value as number) < 0 ? null : value }),
});

/** A setting kept in the organization's simple settings (REALM_PROPERTIES). */
const propertySetting = (name: RealmPropertyName): SettingSpec => ({
  current: (realm) => realmProperty(realm, name),
  store: (value) => ({ property: { [name]: value as RealmPropertyValue } }),
});

// Upstream's order: the time limits first (update_realm sets them before the others), then the
// rest (upstream goes through Realm.property_types; here alphabetically), then the group settings.
const FIELD_SETTINGS: Record<FieldName, SettingSpec> = {
  message_content_delete_limit_seconds: editSetting('messageContentDeleteLimitSeconds', { timeLimit: true }),
  message_content_edit_limit_seconds: editSetting('messageContentEditLimitSeconds', { timeLimit: true, updateDict: true }),
  move_messages_within_stream_limit_seconds: editSetting('moveMessagesWithinStreamLimitSeconds', { timeLimit: true }),
  move_messages_between_streams_limit_seconds: editSetting('moveMessagesBetweenStreamsLimitSeconds', { timeLimit: true }),
  allow_message_editing: editSetting('allowMessageEditing', { updateDict: true }),
  moderation_request_channel_id: channelSetting('moderation_request_channel_id'),
  new_stream_announcements_stream_id: channelSetting('new_stream_announcements_stream_id'),
  signup_announcements_stream_id: channelSetting('signup_announcements_stream_id'),
  zulip_update_announcements_stream_id: channelSetting('zulip_update_announcements_stream_id'),
  default_language: { current: realmDefaultLanguage, store: (value) => ({ defaultLanguage: value as string }) },
  description: realmField('description'),
  enable_read_receipts: { current: readReceiptsEnabled, store: (value) => ({ enableReadReceipts: value as boolean }) },
  enable_spectator_access: realmField('enableSpectatorAccess'),
  name: realmField('name'),
  waiting_period_threshold: realmField('waitingPeriodThreshold'),
};
const SETTINGS: Record<SettingName, SettingSpec> = {
  ...FIELD_SETTINGS,
  ...(Object.fromEntries((Object.keys(REALM_PROPERTIES) as RealmPropertyName[]).map((name) => [name, propertySetting(name)])) as Record<
    RealmPropertyName,
    SettingSpec
  >),
};
const SETTING_ORDER: SettingName[] = [
  ...(Object.keys(FIELD_SETTINGS) as FieldName[]).slice(0, 4),
  ...(Object.keys(SETTINGS) as SettingName[]).filter((name) => !SETTINGS[name].timeLimit).sort(),
];

/** The group settings in upstream's order (Realm.REALM_PERMISSION_GROUP_SETTINGS: the invite group first). */
const GROUP_SETTING_ORDER = [
  'create_multiuse_invite_group',
  ...Object.keys(REALM_GROUP_SETTINGS).filter((n) => n !== 'create_multiuse_invite_group'),
];

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
  const provider = request.properties?.video_chat_provider;
  if (provider !== undefined && !Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === provider))
    throw new BadRequestError(`Invalid video_chat_provider ${provider}`);
  const requested = [
    ...Object.keys(request).filter((k) => k !== 'properties' && k !== 'groupSettings' && request[k as FieldName] !== undefined),
    ...Object.keys(request.properties ?? {}),
    ...Object.keys(request.groupSettings ?? {}),
  ];
  if (requested.some((name) => REALM_OWNER_ONLY_SETTINGS.has(name))) requireRealmOwner(user);
  const values: Partial<Record<SettingName, SettingValue>> = {};
  for (const name of SETTING_ORDER) {
    const raw = name in REALM_PROPERTIES ? request.properties?.[name as RealmPropertyName] : request[name as FieldName];
    if (raw === undefined) continue;
    values[name] = SETTINGS[name].timeLimit
      ? parseTimeLimit(name, raw)
      : name in REALM_CHANNEL_SETTINGS && (raw as number) < 0
        ? -1
        : (raw as SettingValue);
  }
  return values;
};

/**
 * The group settings that change, checked on the organization's current groups as upstream's
 * validate_group_setting_value_change and access_user_group_for_setting do: an `old` value that
 * is not the current one is EXPECTATION_MISMATCH; an unchanged value is skipped.
 */
const checkGroupSettings = async (
  realm: Realm,
  groups: RealmGroups,
  changes: Partial<Record<string, SettingChange>>,
): Promise<[string, GroupSettingValue][]> => {
  const out: [string, GroupSettingValue][] = [];
  for (const name of GROUP_SETTING_ORDER) {
    const change = changes[name];
    if (change === undefined) continue;
    const setting = REALM_GROUP_SETTINGS[name];
    const next = normalizeSettingValue(change.new, groups);
    const current = realmGroupSetting(realm, groups.groups, name)!;
    if (change.old !== undefined && !sameSettingValue(normalizeSettingValue(change.old, groups), current)) {
      throw new ApiError("'old' value does not match the expected value.", { code: ErrorCode.EXPECTATION_MISMATCH });
    }
    if (sameSettingValue(current, next)) continue;
    await checkGroupSettingValue(realm.id, groups, name, next, setting);
    out.push([name, next]);
  }
  return out;
};

/** The stored form of a set of changed settings on `realm`. */
const storedChanges = (
  realm: Realm,
  changed: [SettingName, SettingValue][],
  groupChanges: [string, GroupSettingValue][],
): realmsStore.RealmSettingsChanges => {
  const out: realmsStore.RealmSettingsChanges = {};
  let edit: Partial<MessageEditSettings> | undefined;
  let properties: Partial<Record<RealmPropertyName, RealmPropertyValue>> | undefined;
  for (const [name, value] of changed) {
    const change = SETTINGS[name].store(value);
    if ('edit' in change) edit = { ...(edit ?? realm.messageEditSettings ?? {}), ...change.edit };
    else if ('property' in change) properties = { ...(properties ?? realm.properties ?? {}), ...change.property };
    else Object.assign(out, change);
  }
  if (edit) out.messageEditSettings = edit;
  if (properties) out.properties = properties;
  if (groupChanges.length > 0) {
    out.groupSettings = { ...realm.groupSettings };
    for (const [name, value] of groupChanges) out.groupSettings[REALM_GROUP_SETTINGS[name].stored] = value;
  }
  return out;
};

const eventFor = (name: SettingName, value: SettingValue): RealmEvent =>
  SETTINGS[name].updateDict
    ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
    : { type: 'realm', op: 'update', property: name, value };

/**
 * Writes `values` (settings already checked) and the group settings `groupChanges` asks for,
 * where they differ from the stored ones, in one conditional write retried on a fresh read
 * (the group settings are checked again on it); then sends one `realm` event per changed
 * setting to the whole organization: `update` (or `update_dict` for the historical message edit
 * settings), and `update_dict` for each group setting, as upstream's do_set_realm_property and
 * do_change_realm_permission_group_setting. Returns the changes.
 */
const doUpdateRealmSettings = async (
  realmId: number,
  values: Partial<Record<SettingName, SettingValue>>,
  groupChanges: Partial<Record<string, SettingChange>> = {},
): Promise<{ changed: [SettingName, SettingValue][]; groups: [string, GroupSettingValue][] }> => {
  const result = await retryLostRaces(async () => {
    const realm = await realmsStore.get(realmId, { consistent: true });
    if (!realm) throw new Error(`organization ${realmId} is gone`);
    const changed = (Object.entries(values) as [SettingName, SettingValue][]).filter(
      ([name, value]) => SETTINGS[name].current(realm) !== value,
    );
    let groupsChanged: [string, GroupSettingValue][] = [];
    let used: number[] = [];
    if (Object.keys(groupChanges).length > 0) {
      const groups = await RealmGroups.load(realmId, { consistent: true });
      groupsChanged = await checkGroupSettings(realm, groups, groupChanges);
      used = usedNonSystemGroups(
        groups,
        groupsChanged.flatMap(([, value]) => groupsUsedBy(value)),
      );
    }
    if (changed.length === 0 && groupsChanged.length === 0) return { changed, groups: groupsChanged };
    if (!(await realmsStore.updateSettings(realm.id, realm.settingsVersion, storedChanges(realm, changed, groupsChanged), used)))
      throw new LostRaceError();
    return { changed, groups: groupsChanged };
  });
  for (const [name, value] of result.changed) await sendEvent(realmId, eventFor(name, value), 'realm');
  for (const [name, value] of result.groups) {
    await sendEvent(
      realmId,
      { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: toApiGroupSettingValue(value) } },
      'realm',
    );
  }
  return result;
};

/**
 * Sets one simple organization setting from within another action (upstream calls
 * do_set_realm_property so), with its `realm` `update` event when it changes. No permission check.
 */
export const doSetRealmProperty = async (realmId: number, name: RealmPropertyName, value: RealmPropertyValue): Promise<void> => {
  await doUpdateRealmSettings(realmId, { [name]: value });
};

/**
 * PATCH /realm, for administrators; the owner-only settings (REALM_OWNER_ONLY_SETTINGS:
 * invitations, sign-up restrictions, group management, the waiting period) for owners only
 * ("Must be an organization owner"). Checks every value first (an unknown language: "Invalid
 * language 'xx'"; an unknown video call provider; a time limit that is neither positive nor
 * "unlimited": "Bad value for '…': …"; each group setting as upstream's access_user_group_for_setting),
 * then writes the settings whose value differs from the stored one in one conditional write
 * (retried on a fresh read when another change came first), then sends one `realm` event per
 * changed setting to the whole organization. Returns upstream's answer data: each changed
 * setting with its new value, or "updated" for a text setting.
 */
export const checkUpdateRealm = forAdministrators(async (user: User, request: RealmSettingsRequest): Promise<Record<string, unknown>> => {
  const values = checkRequest(user, request);
  // A channel setting names a channel whose metadata the administrator can see (upstream's
  // access_stream_by_id without content access): else "Invalid channel ID".
  for (const name of Object.keys(REALM_CHANNEL_SETTINGS) as RealmChannelSettingName[]) {
    const id = request[name];
    if (id !== undefined && id >= 0) await accessChannelMetadataById(user, id);
  }
  const { changed, groups } = await doUpdateRealmSettings(user.realmId, values, request.groupSettings);
  return {
    ...Object.fromEntries(changed.map(([name, value]) => [name, typeof value === 'string' ? 'updated' : value])),
    ...Object.fromEntries(groups.map(([name, value]) => [name, toApiGroupSettingValue(value)])),
  };
});

/**
 * POST /realm/deactivate, for owners (upstream's deactivate_realm and do_deactivate_realm):
 * marks the organization deactivated, so from then on every request of its users is refused
 * (401 REALM_DEACTIVATED: authentication reads the organization), event polls and API key
 * fetches included, and its web sessions end (lib/web/session.ts). Sends `realm` `deactivated`
 * to the whole organization, which ends its clients' event queues. Deactivating an organization
 * that already is (a concurrent request came first) changes nothing and sends nothing, as upstream.
 * `deletionDelayDays` is accepted as upstream does without deletion limits configured; this
 * service does not delete deactivated organizations.
 */
export const doDeactivateRealm = forOwners(async (user: User): Promise<void> => {
  await doSetRealmDeactivated(user.realmId, true);
});

/**
 * Marks the organization deactivated (or active again); false when it already was. A
 * deactivation sends `realm` `deactivated` to the whole organization, ending its clients' queues.
 */
export const doSetRealmDeactivated = async (realmId: number, deactivated: boolean): Promise<boolean> => {
  if (!(await realmsStore.setDeactivated(realmId, deactivated))) return false;
  if (deactivated) await sendEvent(realmId, { type: 'realm', op: 'deactivated', realm_id: realmId }, 'realm');
  return true;
};

/**
 * PATCH /realm/user_settings_defaults, for administrators (upstream's
 * update_realm_user_settings_defaults): checks the values beyond their types as PATCH /settings
 * does (notification sound, email batching period), then writes those that differ from the
 * current defaults in one conditional write (retried on a fresh read), then sends one
 * `realm_user_settings_defaults` `update` event per changed setting to the whole organization.
 */
export const checkUpdateRealmUserSettingsDefaults = forAdministrators(
  async (user: User, settings: Record<string, UserSettingValue>): Promise<void> => {
    checkSettingValues(settings);
    const changed = await retryLostRaces(async () => {
      const realm = await realmsStore.get(user.realmId, { consistent: true });
      if (!realm) throw new Error(`organization ${user.realmId} is gone`);
      const current: Record<string, UserSettingValue> = realmUserSettingsDefaults(realm);
      const differing = Object.entries(settings).filter(([name, value]) => current[name] !== value);
      if (differing.length === 0) return differing;
      const userSettingsDefaults = { ...(realm.userSettingsDefaults ?? {}), ...Object.fromEntries(differing) };
      if (!(await realmsStore.updateSettings(realm.id, realm.settingsVersion, { userSettingsDefaults }))) throw new LostRaceError();
      return differing;
    });
    for (const [property, value] of changed) {
      await sendEvent(user.realmId, { type: 'realm_user_settings_defaults', op: 'update', property, value }, 'realm');
    }
  },
);
