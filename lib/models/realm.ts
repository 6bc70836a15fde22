import { config } from '../config';

/** A group-setting value: a user group id, or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export type RealmLimits = {
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_channel_folder_name_length: number;
  max_channel_folder_description_length: number;
  max_reminder_note_length: number;
  max_topic_length: number;
};

/** Who sees which part of a message's edit history (upstream's message_edit_history_visibility_policy). */
export type EditHistoryVisibility = 'all' | 'moves' | 'none';

/** The organization's message editing settings. A `null` limit means no limit. */
export type MessageEditSettings = {
  allowMessageEditing: boolean;
  messageContentEditLimitSeconds: number | null;
  messageContentDeleteLimitSeconds: number | null;
  moveMessagesWithinStreamLimitSeconds: number | null;
  moveMessagesBetweenStreamsLimitSeconds: number | null;
  editHistoryVisibility: EditHistoryVisibility;
};

/** One image's state: upstream's *_source and *_version, and the uploaded image's S3 key base. */
export type RealmImage = { source: string; version: number; path?: string };

/** An organization. Group settings are stored as wire-format group-setting values. */
export type Realm = {
  id: number;
  stringId: string;
  name: string;
  description: string;
  dateCreated: number;
  deactivated: boolean;
  presenceDisabled: boolean;
  enableSpectatorAccess: boolean;
  waitingPeriodThreshold: number;
  emptyTopicDisplayName: string;
  demoOrganizationScheduledDeletionDate: number | null;
  /** The channel Notification Bot announces new channels in (upstream's new_stream_announcements_stream), if any. */
  newStreamAnnouncementsStreamId?: number | null;
  /** The channel Notification Bot announces new users in (upstream's signup_announcements_stream), if any. */
  signupAnnouncementsStreamId?: number | null;
  /** The channel for announcements of new server features (upstream's zulip_update_announcements_stream), if any. */
  zulipUpdateAnnouncementsStreamId?: number | null;
  /** The channel Notification Bot posts reported messages in (upstream's moderation_request_channel); none: reporting is off. */
  moderationRequestChannelId?: number | null;
  limits: RealmLimits;
  groupSettings: Record<string, GroupSettingValue>;
  /** Whether members may see who read a message (upstream's enable_read_receipts); absent means on. */
  enableReadReceipts?: boolean;
  /** Message editing settings the organization changed; upstream's defaults otherwise (messageEditSettings()). */
  messageEditSettings?: Partial<MessageEditSettings>;
  /** The organization's language (upstream's default_language); absent means English. */
  defaultLanguage?: string;
  /** The simple settings PATCH /realm changed (REALM_PROPERTIES, by wire name); defaults otherwise. */
  properties?: Partial<Record<RealmPropertyName, RealmPropertyValue>>;
  /** The settings new accounts start with, where the organization changed them (PATCH /realm/user_settings_defaults). */
  userSettingsDefaults?: Record<string, boolean | number | string>;
  /** The uploaded icon and logos (lib/models/realm-images.ts); absent until first changed. */
  icon?: RealmImage;
  logo?: RealmImage;
  nightLogo?: RealmImage;
  /** Counts the changes of the settings above through PATCH /realm; absent before the first one. */
  settingsVersion?: number;
};

/** Upstream's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/**
 * The organization settings that name a channel (upstream's channel-valued settings, -1 on the
 * wire for none), by wire name: the attribute of the organization that keeps each.
 */
export const REALM_CHANNEL_SETTINGS = {
  moderation_request_channel_id: 'moderationRequestChannelId',
  new_stream_announcements_stream_id: 'newStreamAnnouncementsStreamId',
  signup_announcements_stream_id: 'signupAnnouncementsStreamId',
  zulip_update_announcements_stream_id: 'zulipUpdateAnnouncementsStreamId',
} as const;
export type RealmChannelSettingName = keyof typeof REALM_CHANNEL_SETTINGS;

/** A channel setting's value as the API sends it: the channel's id, or -1 for none. */
export const realmChannelSetting = (realm: Realm, name: RealmChannelSettingName): number => realm[REALM_CHANNEL_SETTINGS[name]] ?? -1;

/** The organization's language: the stored one, else English (upstream's default for a new organization). */
export const realmDefaultLanguage = (realm: Pick<Realm, 'defaultLanguage'>): string => realm.defaultLanguage ?? 'en';

/** Upstream's Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH. */
export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;

/** Upstream's Realm.VIDEO_CHAT_PROVIDERS this server offers (no Zoom or BigBlueButton credentials). */
export const VIDEO_CHAT_PROVIDERS = { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } };

export type RealmPropertyValue = boolean | number | string;

/**
 * The simple organization settings (upstream's Realm.property_types) this service stores in
 * `properties`, by wire name, with upstream's default for a new organization. Register reports
 * each as `realm_<name>`; PATCH /realm changes them with a `realm` `update` event.
 */
export const REALM_PROPERTIES = {
  avatar_changes_disabled: false,
  default_code_block_language: '',
  digest_emails_enabled: false,
  /** The weekday digests go out (lib/models/digest.ts digestWeekday: Monday 0); upstream's default is Tuesday. */
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_guest_user_dm_warning: true,
  enable_guest_user_indicator: true,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  message_content_allowed_in_email_notifications: true,
  name_changes_disabled: false,
  require_unique_names: false,
  send_welcome_emails: true,
  video_chat_provider: VIDEO_CHAT_PROVIDERS.jitsi_meet.id,
  want_advertise_in_communities_directory: false,
  welcome_message_custom_text: '',
} satisfies Record<string, RealmPropertyValue>;

export type RealmPropertyName = keyof typeof REALM_PROPERTIES;

/** An organization's value of a simple setting: the stored one, else upstream's default. */
export const realmProperty = <K extends RealmPropertyName>(realm: Pick<Realm, 'properties'>, name: K): (typeof REALM_PROPERTIES)[K] =>
  (realm.properties?.[name] ?? REALM_PROPERTIES[name]) as (typeof REALM_PROPERTIES)[K];

/**
 * The settings only owners may change (upstream's update_realm raises
 * OrganizationOwnerRequiredError for these), by wire name.
 */
export const REALM_OWNER_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  'invite_required',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
]);

/**
 * An organization-level group setting (upstream's GroupPermissionSetting): the stored setting's
 * name, upstream's default system group for an organization that has not set it, and which
 * values it takes (role:nobody and role:everyone; only system groups, only some of them).
 */
export type RealmGroupSetting = {
  stored: string;
  defaultGroup: string;
  allowNobody: boolean;
  allowEveryone: boolean;
  /** Only these system groups (upstream's require_system_group with allowed_system_groups). */
  allowedSystemGroups?: string[];
};

const groupSetting = (
  stored: string,
  defaultGroup: string,
  allow: { nobody?: boolean; everyone?: boolean; systemGroups?: string[] } = {},
): RealmGroupSetting => ({
  stored,
  defaultGroup,
  allowNobody: allow.nobody ?? true,
  allowEveryone: allow.everyone ?? false,
  ...(allow.systemGroups ? { allowedSystemGroups: allow.systemGroups } : {}),
});

/**
 * The organization-level group settings register shows, by wire name (without `realm_`), as
 * upstream's Realm.REALM_PERMISSION_GROUP_SETTINGS declares them.
 */
export const REALM_GROUP_SETTINGS: Record<string, RealmGroupSetting> = {
  can_access_all_users_group: groupSetting('can_access_all_users_group', 'role:everyone', {
    nobody: false,
    everyone: true,
    systemGroups: ['role:everyone', 'role:members'],
  }),
  can_add_custom_emoji_group: groupSetting('can_add_custom_emoji_group', 'role:members'),
  can_add_subscribers_group: groupSetting('can_add_subscribers_group', 'role:members'),
  can_create_bots_group: groupSetting('can_create_bots_group', 'role:members'),
  can_create_groups: groupSetting('can_create_groups', 'role:members'),
  can_create_private_channel_group: groupSetting('can_create_private_channel_group', 'role:members'),
  can_create_public_channel_group: groupSetting('can_create_public_channel_group', 'role:members'),
  can_create_web_public_channel_group: groupSetting('can_create_web_public_channel_group', 'role:owners', {
    systemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  can_create_write_only_bots_group: groupSetting('can_create_write_only_bots_group', 'role:members'),
  can_delete_any_message_group: groupSetting('can_delete_any_message_group', 'role:administrators'),
  can_delete_own_message_group: groupSetting('can_delete_own_message_group', 'role:everyone', { everyone: true }),
  can_invite_users_group: groupSetting('can_invite_users_group', 'role:members'),
  can_manage_all_groups: groupSetting('can_manage_all_groups', 'role:owners', { nobody: false }),
  can_manage_billing_group: groupSetting('can_manage_billing_group', 'role:administrators', { nobody: false }),
  can_mention_many_users_group: groupSetting('can_mention_many_users_group', 'role:administrators', { everyone: true }),
  can_move_messages_between_channels_group: groupSetting('can_move_messages_between_channels_group', 'role:members'),
  can_move_messages_between_topics_group: groupSetting('can_move_messages_between_topics_group', 'role:everyone', { everyone: true }),
  can_resolve_topics_group: groupSetting('can_resolve_topics_group', 'role:everyone', { everyone: true }),
  can_set_delete_message_policy_group: groupSetting('can_set_delete_message_policy_group', 'role:moderators'),
  can_set_topics_policy_group: groupSetting('can_set_topics_policy_group', 'role:moderators', { everyone: true }),
  can_summarize_topics_group: groupSetting('can_summarize_topics_group', 'role:everyone', { everyone: true }),
  create_multiuse_invite_group: groupSetting('can_create_multiuse_invite_group', 'role:administrators'),
  direct_message_initiator_group: groupSetting('direct_message_initiator_group', 'role:everyone', { everyone: true }),
  direct_message_permission_group: groupSetting('direct_message_permission_group', 'role:everyone', { everyone: true }),
};

/** Whether the organization shows who read a message (upstream's enable_read_receipts; on unless turned off). */
export const readReceiptsEnabled = (realm: Pick<Realm, 'enableReadReceipts'>): boolean => realm.enableReadReceipts !== false;

/** The subdomain a request was addressed to (`zulip.localhost` → `zulip`), if any. */
export const subdomainOf = (host: string | undefined): string | undefined => {
  if (!host) return undefined;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const root = config.rootDomain();
  if (!hostname.endsWith(`.${root}`)) return undefined;
  const sub = hostname.slice(0, -(root.length + 1));
  return sub && !sub.includes('.') ? sub : undefined;
};

/**
 * The organization's URL: the service's base URL (config.externalUrl) serves the default
 * organization, and every other one is at its subdomain.
 */
export const realmUrl = (realm: Realm): string => {
  const base = new URL(config.externalUrl());
  if (realm.stringId !== config.defaultRealm()) base.hostname = `${realm.stringId}.${base.hostname}`;
  return base.origin;
};

/** The host name of the organization's URL: bots' emails end in it (upstream's get_bot_domain), as do placeholder emails. */
export const realmHost = (realm: Realm): string => new URL(realmUrl(realm)).hostname;

/** The placeholder email of a user one may not see: user{id}@ the organization's host. */
export const dummyUserEmail = (realm: Realm, userId: number): string => `user${userId}@${realmHost(realm)}`;

/**
 * The reasons a message can be reported for (upstream's Realm.REPORT_MESSAGE_REASONS, register's
 * server_report_message_types), in upstream's order.
 */
export const REPORT_MESSAGE_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
] as const;
export type ReportMessageType = (typeof REPORT_MESSAGE_TYPES)[number]['key'];

/** Upstream's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
