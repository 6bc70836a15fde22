// Register state "realm": the organization's settings (realm_*), the server's limits and
// constants (max_*, server_*), and the organization's URL. Stored settings come from the realm
// item; settings this service does not store yet have upstream's default for a new organization,
// and server settings are this server's (it has no push bouncer, billing or GIFs).
import { MAX_FILE_UPLOAD_SIZE_MIB } from '../models/attachment';
import { MAX_BULK_NEW_SUBSCRIPTION_MESSAGES } from '../models/channel';
import { createHash } from 'node:crypto';
import { config } from '../config';
import { realmAuthenticationMethods } from '../models/authentication';
import { DEFAULT_EXTERNAL_ACCOUNTS } from '../models/custom-profile-field';
import { messageEditSettings } from '../models/message-edit';
import {
  type GroupSettingValue,
  readReceiptsEnabled,
  realmDefaultLanguage,
  REALM_GROUP_SETTINGS,
  REALM_PROPERTIES,
  REPORT_MESSAGE_TYPES,
  realmChannelSetting,
  realmProperty,
  VIDEO_CHAT_PROVIDERS,
  type Realm,
  type RealmPropertyName,
  realmUrl,
} from '../models/realm';
import { MAX_ICON_FILE_SIZE_MIB, MAX_LOGO_FILE_SIZE_MIB, realmImageData } from '../models/realm-images';
import { realmGroupSetting, type UserGroup } from '../models/user-group';
import { realmGroups } from './context';
import type { StateBuilder } from './registry';
import { PASSWORD_LENGTH } from '../models/user';

/** When this process started: upstream's server_generation (clients reload when it changes). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** A stable identifier of the organization (upstream stores a random one; we derive it from the id). */
const realmUuid = (realm: Realm): string => {
  const h = createHash('sha256').update(`realm:${realm.id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

// Upstream's deprecated integer policies, derived from the group settings that replaced them:
// the policy of a system group, else the most permissive value the policy has.
const POLICY_BY_GROUP: Record<string, number> = {
  'role:members': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
  'role:everyone': 5,
  'role:nobody': 6,
  'role:owners': 7,
};
const WILDCARD_POLICY_BY_GROUP: Record<string, number> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

const legacyPolicy = (
  value: GroupSettingValue | undefined,
  groups: UserGroup[],
  table: Record<string, number>,
  fallback: number,
): number => {
  const group = typeof value === 'number' ? groups.find((g) => g.id === value) : undefined;
  return (group?.isSystemGroup ? table[group.name] : undefined) ?? fallback;
};

const GIF_RATING_POLICY_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

const JITSI_SERVER_URL = 'https://meet.jit.si';

/**
 * "realm". Spectators see the settings as upstream shows them to logged-out visitors: editing
 * off and presence off. The demo deletion date appears only for demo organizations.
 */
export const realmState: StateBuilder = async (ctx) => {
  if (!ctx.want('realm')) return {};
  const { realm } = ctx;
  const spectator = ctx.user === undefined;
  const edit = messageEditSettings(realm);
  const groups = await realmGroups(ctx);
  const url = realmUrl(realm);
  const host = new URL(url).hostname;
  const groupSettings = Object.fromEntries(
    Object.keys(REALM_GROUP_SETTINGS).map((name) => [`realm_${name}`, realmGroupSetting(realm, groups, name)]),
  );
  return {
    ...groupSettings,
    realm_create_public_stream_policy: legacyPolicy(groupSettings.realm_can_create_public_channel_group, groups, POLICY_BY_GROUP, 1),
    realm_create_private_stream_policy: legacyPolicy(groupSettings.realm_can_create_private_channel_group, groups, POLICY_BY_GROUP, 1),
    realm_create_web_public_stream_policy: legacyPolicy(
      groupSettings.realm_can_create_web_public_channel_group,
      groups,
      POLICY_BY_GROUP,
      4,
    ),
    realm_wildcard_mention_policy: legacyPolicy(groupSettings.realm_can_mention_many_users_group, groups, WILDCARD_POLICY_BY_GROUP, 1),

    realm_name: realm.name,
    realm_description: realm.description,
    realm_date_created: realm.dateCreated,
    ...(realm.demoOrganizationScheduledDeletionDate !== null
      ? { demo_organization_scheduled_deletion_date: realm.demoOrganizationScheduledDeletionDate }
      : {}),
    realm_url: url,
    realm_uri: url,
    realm_uuid: realmUuid(realm),
    realm_bot_domain: host,
    realm_presence_disabled: spectator ? true : realm.presenceDisabled,
    realm_enable_spectator_access: realm.enableSpectatorAccess,
    realm_waiting_period_threshold: realm.waitingPeriodThreshold,
    realm_empty_topic_display_name: realm.emptyTopicDisplayName,
    realm_allow_message_editing: !spectator && edit.allowMessageEditing,
    realm_message_content_edit_limit_seconds: edit.messageContentEditLimitSeconds,
    realm_message_content_delete_limit_seconds: edit.messageContentDeleteLimitSeconds,
    realm_move_messages_within_stream_limit_seconds: edit.moveMessagesWithinStreamLimitSeconds,
    realm_move_messages_between_streams_limit_seconds: edit.moveMessagesBetweenStreamsLimitSeconds,
    realm_message_edit_history_visibility_policy: edit.editHistoryVisibility,
    realm_allow_edit_history: edit.editHistoryVisibility !== 'none',
    realm_enable_read_receipts: readReceiptsEnabled(realm),
    realm_default_language: realmDefaultLanguage(realm),
    realm_media_preview_size: 100,
    realm_topics_policy: 'allow_empty_topic',
    realm_mandatory_topics: false,
    realm_message_retention_days: -1,
    ...Object.fromEntries(
      (Object.keys(REALM_PROPERTIES) as RealmPropertyName[]).map((name) => [`realm_${name}`, realmProperty(realm, name)]),
    ),
    realm_available_video_chat_providers: structuredClone(VIDEO_CHAT_PROVIDERS),
    realm_jitsi_server_url: null,
    jitsi_server_url: JITSI_SERVER_URL,
    server_jitsi_server_url: JITSI_SERVER_URL,
    server_report_message_types: REPORT_MESSAGE_TYPES.map(({ key, name }) => ({ key, name })),
    realm_gif_rating_policy: 2,
    gif_rating_policy_options: GIF_RATING_POLICY_OPTIONS,
    realm_authentication_methods: realmAuthenticationMethods(),
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    ...Object.fromEntries(
      (['icon', 'logo', 'night_logo'] as const).flatMap((kind) =>
        Object.entries(realmImageData(realm, kind)).map(([name, value]) => [`realm_${name}`, value]),
      ),
    ),
    realm_default_avatar_source: 'G',
    realm_org_type: 0,
    realm_plan_type: 1,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    realm_upload_quota_mib: null,
    realm_push_notifications_enabled: config.pushBouncer() !== undefined,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_owner_full_content_access: false,
    realm_moderation_request_channel_id: realmChannelSetting(realm, 'moderation_request_channel_id'),
    realm_new_stream_announcements_stream_id: realmChannelSetting(realm, 'new_stream_announcements_stream_id'),
    realm_signup_announcements_stream_id: realmChannelSetting(realm, 'signup_announcements_stream_id'),
    realm_zulip_update_announcements_stream_id: realmChannelSetting(realm, 'zulip_update_announcements_stream_id'),
    realm_default_external_accounts: structuredClone(DEFAULT_EXTERNAL_ACCOUNTS),
    settings_send_digest_emails: true,

    max_stream_name_length: realm.limits.max_stream_name_length,
    max_stream_description_length: realm.limits.max_stream_description_length,
    max_channel_folder_name_length: realm.limits.max_channel_folder_name_length,
    max_channel_folder_description_length: realm.limits.max_channel_folder_description_length,
    max_topic_length: realm.limits.max_topic_length,
    max_message_length: 10000,
    max_file_upload_size_mib: MAX_FILE_UPLOAD_SIZE_MIB,
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: MAX_ICON_FILE_SIZE_MIB,
    max_logo_file_size_mib: MAX_LOGO_FILE_SIZE_MIB,
    max_bulk_new_subscription_messages: MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,

    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    server_min_deactivated_realm_deletion_days: null,
    server_max_deactivated_realm_deletion_days: null,
    server_generation: SERVER_GENERATION,
    server_needs_upgrade: false,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: true,
    server_can_summarize_topics: false,
    server_emoji_data_url: config.serverEmojiDataUrl() ?? `${url}/api/v1/server_emoji_data.json`,
    development_environment: config.isDevelopment(),
    password_min_length: PASSWORD_LENGTH.min,
    password_max_length: PASSWORD_LENGTH.max,
    password_min_guesses: 10000,
  };
};
