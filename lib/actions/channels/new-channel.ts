// A new channel's initial settings (upstream's add_subscriptions_backend, create_channel and
// check_channel_creation_permissions in zerver/views/streams.py and zerver/lib/streams.py): the
// checks of what a creator asks for, and the channel as created. POST /users/me/subscriptions and
// POST /channels/create both create through doSubscribe (subscriptions.ts), which calls these.
import { requireRealmOwner } from '../../access/roles';
import { hasRealmPermission, type RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import { CHANNEL_GROUP_SETTINGS, type Channel } from '../../models/channel';
import type { GroupSettingValue, Realm } from '../../models/realm';
import { isAdmin, type User } from '../../models/user';
import { realmGroupSetting, type UserGroup } from '../../models/user-group';
import { checkGroupSettingValue, normalizeSettingValue } from '../groups/manage';
import { accessChannelFolder } from './folders';

export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

/** Upstream's allow_everyone_group of each channel permission (Stream.stream_permission_group_settings). */
export const ALLOWS_EVERYONE: Record<ChannelGroupSetting, boolean> = {
  can_add_subscribers_group: false,
  can_remove_subscribers_group: true,
  can_administer_channel_group: false,
  can_delete_any_message_group: true,
  can_delete_own_message_group: true,
  can_move_messages_out_of_channel_group: true,
  can_move_messages_within_channel_group: true,
  can_send_message_group: true,
  can_subscribe_group: false,
  can_resolve_topics_group: true,
  can_create_topic_group: true,
};

/** Upstream's defaults for a channel's permission settings when its creator does not set them. */
const NEW_CHANNEL_GROUP_DEFAULTS: Record<ChannelGroupSetting, string> = {
  can_add_subscribers_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_administer_channel_group: 'creator',
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:everyone',
  can_move_messages_out_of_channel_group: 'role:nobody',
  can_move_messages_within_channel_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
  can_resolve_topics_group: 'role:nobody',
  can_create_topic_group: 'role:everyone',
};

/** Upstream's StreamTopicsPolicyEnum, by name. */
const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

/** Upstream's parse_message_retention_days with Stream's special values: null is the organization's. */
export const parseRetentionDays = (value: string | number): number | null => {
  if (value === 'unlimited') return -1;
  if (value === 'realm_default') return null;
  if (typeof value === 'string' || value <= 0) throw new BadRequestError(`Bad value for 'message_retention_days': ${value}`);
  return value;
};

/** What a creator may ask of new channels beyond their names, descriptions and privacy (absent: upstream's default). */
export type NewChannelOptions = {
  isWebPublic?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  topicsPolicy?: string;
  folderId?: number;
  groupSettings?: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
};

/** The options as checked: group settings normalized, retention parsed. */
export type CheckedChannelOptions = {
  isWebPublic: boolean;
  isDefaultStream: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: string;
  folderId: number | null;
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
};

/**
 * The checks upstream's add_subscriptions_backend makes of the options before it looks at the
 * channels, in its order: each group setting (checkGroupSettingValue: an active group, or users and
 * subgroups of the organization; role:nobody allowed, role:everyone where the setting allows it),
 * the folder ("Invalid channel folder ID"), message_retention_days ("Bad value for
 * 'message_retention_days': …"), topics_policy ("Invalid topics_policy"; another than inherit
 * needs the organization's can_set_topics_policy_group: "Insufficient permission").
 */
export const checkChannelOptions = async (
  realm: Realm,
  caller: User,
  groups: RealmGroups,
  opts: NewChannelOptions,
): Promise<CheckedChannelOptions> => {
  const groupSettings: CheckedChannelOptions['groupSettings'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = opts.groupSettings?.[setting];
    if (value === undefined) continue;
    const normalized = normalizeSettingValue(value, groups);
    await checkGroupSettingValue(realm.id, groups, setting, normalized, { allowNobody: true, allowEveryone: ALLOWS_EVERYONE[setting] });
    groupSettings[setting] = normalized;
  }
  if (opts.folderId !== undefined) await accessChannelFolder(realm.id, opts.folderId);
  const messageRetentionDays = parseRetentionDays(opts.messageRetentionDays ?? 'realm_default');
  const topicsPolicy = opts.topicsPolicy ?? 'inherit';
  if (!TOPICS_POLICIES.includes(topicsPolicy)) throw new BadRequestError('Invalid topics_policy');
  if (topicsPolicy !== 'inherit' && !hasRealmPermission(realm, groups, caller, 'can_set_topics_policy_group'))
    throw new BadRequestError('Insufficient permission');
  return {
    isWebPublic: opts.isWebPublic ?? false,
    isDefaultStream: opts.isDefaultStream ?? false,
    messageRetentionDays,
    topicsPolicy,
    folderId: opts.folderId ?? null,
    groupSettings,
  };
};

/**
 * Upstream's check_channel_creation_permissions, once the request will create a channel: the
 * organization's can_create_private_channel_group or can_create_public_channel_group, then a
 * default channel only by an administrator and never private ("A default channel cannot be
 * private."), a web-public one only where spectators are allowed ("Web-public channels are not
 * enabled.") and by can_create_web_public_channel_group, a retention only by an owner ("Must be an
 * organization owner"). Each refusal but those two is "Insufficient permission".
 */
export const checkChannelCreation = (
  realm: Realm,
  caller: User,
  groups: RealmGroups,
  inviteOnly: boolean,
  opts: CheckedChannelOptions,
): void => {
  // Guests never create channels (upstream's allow_everyone_group=False for these settings).
  const may = (setting: string) => groups.hasPermission(caller, realmGroupSetting(realm, groups.groups, setting), false);
  if (!may(inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group'))
    throw new BadRequestError('Insufficient permission');
  if (opts.isDefaultStream && !isAdmin(caller)) throw new BadRequestError('Insufficient permission');
  if (opts.isDefaultStream && inviteOnly) throw new BadRequestError('A default channel cannot be private.');
  if (opts.isWebPublic) {
    if (!realm.enableSpectatorAccess) throw new BadRequestError('Web-public channels are not enabled.');
    if (!may('can_create_web_public_channel_group')) throw new BadRequestError('Insufficient permission');
  }
  if (opts.messageRetentionDays !== null) requireRealmOwner(caller);
};

/**
 * A new channel as upstream's create_stream_if_needed makes it: public or private as asked, history
 * shared with subscribers unless a private channel without history_public_to_subscribers, the
 * checked options, and each permission setting the creator did not give at upstream's default (the
 * creator administering it: an anonymous group of one).
 */
export const newChannel = (
  realm: Pick<Realm, 'id'>,
  creator: Pick<User, 'id'> | null,
  groups: UserGroup[],
  fields: { id: number; name: string; description: string; inviteOnly: boolean; historyPublicToSubscribers: boolean | undefined },
  opts: CheckedChannelOptions,
  now: number,
): Channel => {
  const systemGroup = (groupName: string): number => groups.find((g) => g.isSystemGroup && g.name === groupName)!.id;
  const groupSettings = Object.fromEntries(
    CHANNEL_GROUP_SETTINGS.map((setting) => {
      const d = NEW_CHANNEL_GROUP_DEFAULTS[setting];
      const fallback = d === 'creator' ? { direct_members: creator ? [creator.id] : [], direct_subgroups: [] } : systemGroup(d);
      return [setting, opts.groupSettings[setting] ?? fallback];
    }),
  );
  return {
    id: fields.id,
    realmId: realm.id,
    name: fields.name,
    description: fields.description,
    dateCreated: now,
    creatorId: creator?.id ?? null,
    inviteOnly: fields.inviteOnly,
    isWebPublic: opts.isWebPublic,
    // Upstream has no public channel with protected history: a public channel's history is shared.
    historyPublicToSubscribers: fields.inviteOnly ? (fields.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays: opts.messageRetentionDays,
    topicsPolicy: opts.topicsPolicy,
    folderId: opts.folderId,
    isArchived: false,
    streamPostPolicy: 1,
    groupSettings,
    subscriberCount: 0,
    firstMessageId: null,
    lastMessageAt: null,
  };
};
