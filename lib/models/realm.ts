import { config } from '../config';
import type { MessageEditSettings } from './message-edit';

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
  limits: RealmLimits;
  groupSettings: Record<string, GroupSettingValue>;
  /** Whether members may see who read a message (upstream's enable_read_receipts); absent means on. */
  enableReadReceipts?: boolean;
  /** Message editing settings the organization changed; upstream's defaults otherwise (messageEditSettings()). */
  messageEditSettings?: Partial<MessageEditSettings>;
  /** The organization's language (upstream's default_language); absent means English. */
  defaultLanguage?: string;
  /** Whether only addresses of the organization's allowed domains may join (upstream's emails_restricted_to_domains); absent means no. */
  emailsRestrictedToDomains?: boolean;
  /** Counts the changes of the settings above through PATCH /realm; absent before the first one. */
  settingsVersion?: number;
};

/** Upstream's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** The organization's language: the stored one, else English (upstream's default for a new organization). */
export const realmDefaultLanguage = (realm: Pick<Realm, 'defaultLanguage'>): string => realm.defaultLanguage ?? 'en';

/**
 * The organization-level group settings register shows, by wire name (without `realm_`), with
 * the stored setting's name and upstream's default system group for an organization that has
 * not set it.
 */
export const REALM_GROUP_SETTINGS: Record<string, { stored: string; defaultGroup: string }> = {
  can_access_all_users_group: { stored: 'can_access_all_users_group', defaultGroup: 'role:everyone' },
  can_add_custom_emoji_group: { stored: 'can_add_custom_emoji_group', defaultGroup: 'role:members' },
  can_add_subscribers_group: { stored: 'can_add_subscribers_group', defaultGroup: 'role:members' },
  can_create_bots_group: { stored: 'can_create_bots_group', defaultGroup: 'role:members' },
  can_create_groups: { stored: 'can_create_groups', defaultGroup: 'role:members' },
  can_create_private_channel_group: { stored: 'can_create_private_channel_group', defaultGroup: 'role:members' },
  can_create_public_channel_group: { stored: 'can_create_public_channel_group', defaultGroup: 'role:members' },
  can_create_web_public_channel_group: { stored: 'can_create_web_public_channel_group', defaultGroup: 'role:owners' },
  can_create_write_only_bots_group: { stored: 'can_create_write_only_bots_group', defaultGroup: 'role:members' },
  can_delete_any_message_group: { stored: 'can_delete_any_message_group', defaultGroup: 'role:administrators' },
  can_delete_own_message_group: { stored: 'can_delete_own_message_group', defaultGroup: 'role:everyone' },
  can_invite_users_group: { stored: 'can_invite_users_group', defaultGroup: 'role:members' },
  can_manage_all_groups: { stored: 'can_manage_all_groups', defaultGroup: 'role:owners' },
  can_manage_billing_group: { stored: 'can_manage_billing_group', defaultGroup: 'role:administrators' },
  can_mention_many_users_group: { stored: 'can_mention_many_users_group', defaultGroup: 'role:administrators' },
  can_move_messages_between_channels_group: { stored: 'can_move_messages_between_channels_group', defaultGroup: 'role:members' },
  can_move_messages_between_topics_group: { stored: 'can_move_messages_between_topics_group', defaultGroup: 'role:everyone' },
  can_resolve_topics_group: { stored: 'can_resolve_topics_group', defaultGroup: 'role:everyone' },
  can_set_delete_message_policy_group: { stored: 'can_set_delete_message_policy_group', defaultGroup: 'role:moderators' },
  can_set_topics_policy_group: { stored: 'can_set_topics_policy_group', defaultGroup: 'role:moderators' },
  can_summarize_topics_group: { stored: 'can_summarize_topics_group', defaultGroup: 'role:everyone' },
  create_multiuse_invite_group: { stored: 'can_create_multiuse_invite_group', defaultGroup: 'role:administrators' },
  direct_message_initiator_group: { stored: 'direct_message_initiator_group', defaultGroup: 'role:everyone' },
  direct_message_permission_group: { stored: 'direct_message_permission_group', defaultGroup: 'role:everyone' },
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
