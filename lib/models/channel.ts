import type { GroupSettingValue } from './realm';

/**
 * Upstream's MAX_BULK_NEW_SUBSCRIPTION_MESSAGES: a request that subscribes more users than this
 * sends none of them Notification Bot's "subscribed you" message (register advertises it).
 */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** A channel (stream) as stored; group settings are wire-format group-setting values. */
export type Channel = {
  id: number;
  realmId: number;
  name: string;
  description: string;
  dateCreated: number;
  creatorId: number | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: string;
  folderId: number | null;
  isArchived: boolean;
  streamPostPolicy: number;
  groupSettings: Record<string, GroupSettingValue>;
  /**
   * Kept on the channel so that register reads no subscription or message to show them: writers
   * of subscriptions keep `subscriberCount` (active, non-deactivated subscribers) in the same
   * transaction, and message sending keeps `firstMessageId` (set once) and `lastMessageAt`.
   */
  subscriberCount: number;
  firstMessageId: number | null;
  /** When the newest message was sent (UNIX seconds), null for a channel without messages. */
  lastMessageAt: number | null;
};

/** A user's subscription row for a channel (`active` false once unsubscribed). */
export type Subscription = {
  userId: number;
  channelId: number;
  realmId: number;
  active: boolean;
  /**
   * False while the user is deactivated (upstream's Subscription.is_user_active): the subscription
   * stays, but leaves its channel's subscriber index, so a deactivated user receives no messages
   * and is in no subscriber list. Absent means active.
   */
  isUserActive?: boolean;
  isMuted: boolean;
  pinToTop: boolean;
  color: string;
  desktopNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
  pushNotifications: boolean | null;
  audibleNotifications: boolean | null;
  /**
   * Set once the user follows a topic of the channel (never cleared): a send reads it with the
   * subscriber list, so that only a message to a channel where someone follows topics looks further
   * for followed-topic emails (lib/actions/missed-emails/).
   */
  followsTopics?: true;
};

/** A new active subscription with upstream's defaults (not muted or pinned, notifications inherited). */
export const newSubscription = (who: { userId: number; channelId: number; realmId: number }, color: string): Subscription => ({
  ...who,
  active: true,
  isMuted: false,
  pinToTop: false,
  color,
  desktopNotifications: null,
  emailNotifications: null,
  wildcardMentionsNotify: null,
  pushNotifications: null,
  audibleNotifications: null,
});

/** A channel folder of an organization. */
export type ChannelFolder = {
  id: number;
  realmId: number;
  name: string;
  description: string;
  order: number;
  dateCreated: number | null;
  creatorId: number | null;
  isArchived: boolean;
};

/** The channel permission settings, in upstream's order. */
export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
  'can_create_topic_group',
] as const;

/** The colors a spectator's simulated subscriptions take in turn (upstream's assignment colors). */
export const STREAM_ASSIGNMENT_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];
