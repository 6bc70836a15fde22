// The channel and subscription dicts of the API (upstream's stream dict and subscription fields):
// register's channel lists, GET /streams/{id}, and the `stream` and `subscription` events.
import { CHANNEL_GROUP_SETTINGS, type Channel, type Subscription } from './channel';
import type { User } from './user';
import { toApiGroupSettingValue, type UserGroup } from './user-group';
import { settingsOfUser } from './user-settings';

/** A channel with no message for this long is not recently active (upstream's 180 days). */
const RECENTLY_ACTIVE_DAYS = 180;

const STREAM_POST_POLICY_BY_GROUP: Record<string, number> = { 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 };

/** The deprecated stream_post_policy implied by who may post (1 unless a restricting system group). */
const streamPostPolicy = (channel: Channel, groups: UserGroup[]): number => {
  const value = channel.groupSettings.can_send_message_group;
  const group = typeof value === 'number' ? groups.find((g) => g.id === value) : undefined;
  return group?.isSystemGroup ? (STREAM_POST_POLICY_BY_GROUP[group.name] ?? 1) : 1;
};

/** A message in the last 180 days, or (a new channel without any yet) created in them. */
const isRecentlyActive = (channel: Channel, now: number): boolean => {
  const since = now - RECENTLY_ACTIVE_DAYS * 86400;
  return (channel.lastMessageAt ?? channel.dateCreated) >= since;
};

/**
 * The fields every channel list shares (upstream's stream dict). `render` renders the description
 * (lib/render's renderPlainMarkdown, which lib/models may not import: it imports lib/models).
 */
export const channelApiFields = (
  channel: Channel,
  groups: UserGroup[],
  now: number,
  render: (text: string) => string,
): Record<string, unknown> => {
  const policy = streamPostPolicy(channel, groups);
  return {
    stream_id: channel.id,
    name: channel.name,
    is_archived: channel.isArchived,
    description: channel.description,
    rendered_description: render(channel.description),
    date_created: channel.dateCreated,
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    message_retention_days: channel.messageRetentionDays,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    topics_policy: channel.topicsPolicy,
    first_message_id: channel.firstMessageId ?? null,
    folder_id: channel.folderId,
    is_recently_active: isRecentlyActive(channel, now),
    ...Object.fromEntries(
      CHANNEL_GROUP_SETTINGS.filter((s) => channel.groupSettings[s] !== undefined).map((s) => [
        s,
        toApiGroupSettingValue(channel.groupSettings[s]),
      ]),
    ),
    subscriber_count: channel.subscriberCount ?? 0,
    // This service keeps no per-channel traffic statistics: upstream's "not enough data" value.
    stream_weekly_traffic: null,
  };
};

const NOTIFICATION_SETTINGS = [
  ['desktop_notifications', 'desktopNotifications', 'enable_stream_desktop_notifications'],
  ['email_notifications', 'emailNotifications', 'enable_stream_email_notifications'],
  ['push_notifications', 'pushNotifications', 'enable_stream_push_notifications'],
  ['audible_notifications', 'audibleNotifications', 'enable_stream_audible_notifications'],
  ['wildcard_mentions_notify', 'wildcardMentionsNotify', 'wildcard_mentions_notify'],
] as const;

/**
 * The caller's own settings for a channel. A null notification setting means "inherit the
 * user-level default"; clients without notification_settings_null get that default instead.
 */
export const subscriptionFields = (sub: Subscription, user: User, nullsAllowed: boolean): Record<string, unknown> => {
  const settings = settingsOfUser(user);
  return {
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    ...Object.fromEntries(
      NOTIFICATION_SETTINGS.map(([wire, stored, userDefault]) => {
        const value = sub[stored];
        return [wire, value === null && !nullsAllowed ? settings[userDefault] : value];
      }),
    ),
  };
};
