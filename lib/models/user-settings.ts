// A user's personal settings as register's `user_settings` shows them. The service stores only
// the settings it acts on (time zone, presence sharing, draft synchronization, on the user item);
// every other setting has upstream's default value for a new account (zerver/models/users.py,
// UserBaseSettings), which is also what a spectator sees.
import type { Realm } from './realm';
import type { User } from './user';

/** Upstream's defaults for a new account, in the order of upstream's register response. */
export const DEFAULT_USER_SETTINGS = {
  twenty_four_hour_time: false,
  web_mark_read_on_scroll_policy: 1,
  web_channel_default_view: 1,
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  web_home_view: 'inbox',
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 3,
  web_animate_image_previews: 'on_hover',
  web_stream_unreads_count_display_policy: 2,
  hide_ai_features: false,
  web_left_sidebar_show_channel_folders: true,
  web_left_sidebar_unreads_count_summary: true,
  enter_sends: false,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2,
  automatically_follow_topics_where_mentioned: true,
  resolved_topic_notice_auto_read_policy: 'except_followed',
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  /** 1 = everyone: this service has no separate delivery emails (see User.email). */
  email_address_visibility: 1,
  web_navigate_to_sent_message: true,
  presence_enabled: true,
  enable_drafts_synchronization: true,
  timezone: '',
} as const;

export type UserSettings = {
  -readonly [K in keyof typeof DEFAULT_USER_SETTINGS]: (typeof DEFAULT_USER_SETTINGS)[K] extends boolean
    ? boolean
    : (typeof DEFAULT_USER_SETTINGS)[K] extends number
      ? number
      : string;
};

/** The emoji sets this server offers (upstream's EMOJISET_CHOICES). */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** The notification sounds this server offers, by name. */
export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime', 'ding', 'zulip'];

/** The settings kept as attributes of the user item (other code acts on them), by wire name. */
export const USER_ITEM_SETTINGS = {
  timezone: 'timezone',
  presence_enabled: 'presenceEnabled',
  enable_drafts_synchronization: 'enableDraftsSynchronization',
} as const;

/** A user's settings: the stored ones from the user, upstream's defaults for the rest. */
export const settingsOfUser = (user: User | undefined): UserSettings => ({
  ...DEFAULT_USER_SETTINGS,
  ...(user
    ? {
        ...(user.settings ?? {}),
        timezone: user.timezone,
        presence_enabled: user.presenceEnabled,
        enable_drafts_synchronization: user.enableDraftsSynchronization,
      }
    : {}),
});

/** The settings PATCH /settings changes: every one register reports except email_address_visibility (fixed: see above). */
export type ChangeableSetting = Exclude<keyof UserSettings, 'email_address_visibility'>;

/** The values upstream accepts for each enumerated setting (its *_CHOICES). */
export const SETTING_CHOICES = {
  web_mark_read_on_scroll_policy: [1, 2, 3],
  web_channel_default_view: [1, 2, 4],
  color_scheme: [1, 2, 3],
  demote_inactive_streams: [1, 2, 3],
  user_list_style: [1, 2, 3],
  web_stream_unreads_count_display_policy: [1, 2, 3],
  desktop_icon_count_display: [1, 2, 3, 4],
  realm_name_in_email_notifications_policy: [1, 2, 3],
  automatically_follow_topics_policy: [1, 2, 3, 4],
  automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
  web_home_view: ['recent_topics', 'inbox', 'all_messages'],
  emojiset: EMOJISET_CHOICES.map((c) => c.key),
  web_animate_image_previews: ['always', 'on_hover', 'never'],
  resolved_topic_notice_auto_read_policy: ['always', 'except_followed', 'never'],
} as const satisfies Partial<Record<ChangeableSetting, readonly (string | number)[]>>;

/**
 * The settings an organization sets for its new accounts (upstream's RealmUserDefault settings
 * update_realm_user_settings_defaults accepts; not the time zone, the language or the login and
 * marketing emails), in register's order.
 */
export const REALM_USER_DEFAULT_SETTINGS = (
  [
    'dense_mode',
    'web_mark_read_on_scroll_policy',
    'web_channel_default_view',
    'starred_message_counts',
    'receives_typing_notifications',
    'web_stream_unreads_count_display_policy',
    'fluid_layout_width',
    'high_contrast_mode',
    'color_scheme',
    'web_font_size_px',
    'web_line_height_percent',
    'translate_emoticons',
    'display_emoji_reaction_users',
    'web_home_view',
    'web_escape_navigates_to_home_view',
    'left_side_userlist',
    'emojiset',
    'demote_inactive_streams',
    'enable_stream_desktop_notifications',
    'enable_stream_email_notifications',
    'enable_stream_push_notifications',
    'enable_stream_audible_notifications',
    'wildcard_mentions_notify',
    'enable_followed_topic_desktop_notifications',
    'enable_followed_topic_email_notifications',
    'enable_followed_topic_push_notifications',
    'enable_followed_topic_audible_notifications',
    'enable_followed_topic_wildcard_mentions_notify',
    'notification_sound',
    'enable_desktop_notifications',
    'enable_sounds',
    'enable_offline_email_notifications',
    'enable_offline_push_notifications',
    'enable_online_push_notifications',
    'enable_digest_emails',
    'message_content_in_email_notifications',
    'pm_content_in_desktop_notifications',
    'desktop_icon_count_display',
    'realm_name_in_email_notifications_policy',
    'automatically_follow_topics_policy',
    'automatically_unmute_topics_in_muted_streams_policy',
    'automatically_follow_topics_where_mentioned',
    'presence_enabled',
    'enter_sends',
    'enable_drafts_synchronization',
    'email_notifications_batching_period_seconds',
    'twenty_four_hour_time',
    'send_stream_typing_notifications',
    'send_private_typing_notifications',
    'send_read_receipts',
    'user_list_style',
    'web_animate_image_previews',
    'email_address_visibility',
    'web_navigate_to_sent_message',
    'web_suggest_update_timezone',
  ] as const
).filter((name) => name in DEFAULT_USER_SETTINGS) as (keyof UserSettings)[];

/** The settings new accounts of the organization start with: the organization's, else upstream's defaults. */
export const realmUserSettingsDefaults = (realm: Pick<Realm, 'userSettingsDefaults'>): UserSettings => ({
  ...DEFAULT_USER_SETTINGS,
  ...((realm.userSettingsDefaults ?? {}) as Partial<UserSettings>),
});
