// Upstream's data export format (zerver/lib/export.py): the tables as JSON records, named and
// shaped as upstream's importer (zerver/lib/import_realm.py) reads them. Dates are UNIX seconds
// (floats), as upstream's floatify_datetime_fields writes them. Pure: the export job reads the
// store and writes what these return.
import type { Channel, Subscription } from './channel';
import type { Message } from './message';
import type { StoredReactions } from './reaction';
import type { User } from './user';

export type ExportRecord = Record<string, unknown>;

/** What the archive's migration_status.json says of the server that wrote it; an import refuses another format's. */
export const EXPORT_FORMAT = { server: 'serverless-chat', format: 1 } as const;

/** Upstream's Recipient types. */
export const RecipientType = { PERSONAL: 1, STREAM: 2, DIRECT_MESSAGE_GROUP: 3 } as const;

/**
 * Upstream's UserMessage flags in bit order (zerver/models/messages.py AbstractUserMessage.flags):
 * `flags_mask` is their sum. Our `wildcard_mentioned` is upstream's stream_wildcard_mentioned.
 */
const FLAG_BITS: readonly string[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'wildcard_mentioned',
  'summarize_in_home',
  'summarize_in_stream',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
  'topic_wildcard_mentioned',
  'group_mentioned',
];

/** A row's flags as upstream's bit mask (flags this server does not store have no bit here). */
export const flagsMask = (flags: readonly string[]): number =>
  flags.reduce((mask, flag) => (FLAG_BITS.includes(flag) ? mask | (1 << FLAG_BITS.indexOf(flag)) : mask), 0);

/** The flags of a bit mask, in bit order. */
export const flagsOfMask = (mask: number): string[] => FLAG_BITS.filter((_, bit) => (mask & (1 << bit)) !== 0);

/**
 * A message's recipient, as a key the archive's writer turns into a zerver_recipient id: a channel
 * (`C<cid>`), one user (`P<uid>`: a one-to-one or self conversation, the other participant), or a
 * group of three or more (`G<ids ascending>`).
 */
const recipientKeyOf = (m: Pick<Message, 'streamId' | 'dmUserIds' | 'senderId'>): string => {
  if (m.streamId !== null) return `C${m.streamId}`;
  if (m.dmUserIds.length <= 2) return `P${m.dmUserIds.find((id) => id !== m.senderId) ?? m.senderId}`;
  return `G${m.dmUserIds.join(',')}`;
};

export const userRecord = (u: User, opts: { consented: boolean }): ExportRecord => ({
  id: u.id,
  realm: u.realmId,
  email: u.email,
  delivery_email: u.email,
  full_name: u.fullName,
  role: u.role,
  is_active: u.isActive,
  is_bot: u.isBot,
  bot_type: u.botType,
  bot_owner: u.botOwnerId,
  date_joined: u.dateJoined,
  timezone: u.timezone,
  avatar_source: u.avatarSource ?? 'G',
  avatar_version: u.avatarVersion ?? 1,
  allow_private_data_export: opts.consented,
  // Only what was changed from the defaults: the rest are the importing server's defaults.
  settings: u.settings ?? {},
});

export const channelRecord = (c: Channel): ExportRecord => ({
  id: c.id,
  realm: c.realmId,
  name: c.name,
  description: c.description,
  date_created: c.dateCreated,
  creator: c.creatorId,
  invite_only: c.inviteOnly,
  is_web_public: c.isWebPublic,
  history_public_to_subscribers: c.historyPublicToSubscribers,
  message_retention_days: c.messageRetentionDays,
  deactivated: c.isArchived,
  topics_policy: c.topicsPolicy,
  first_message_id: c.firstMessageId,
});

export const subscriptionRecord = (s: Subscription, id: number, recipient: number): ExportRecord => ({
  id,
  user_profile: s.userId,
  recipient,
  active: s.active,
  is_user_active: s.isUserActive !== false,
  is_muted: s.isMuted,
  pin_to_top: s.pinToTop,
  color: s.color,
  desktop_notifications: s.desktopNotifications,
  email_notifications: s.emailNotifications,
  wildcard_mentions_notify: s.wildcardMentionsNotify,
  push_notifications: s.pushNotifications,
  audible_notifications: s.audibleNotifications,
});

/** A message as zerver_message holds it; `recipient` is the recipient key until the archive is written. */
export const messageRecord = (m: Message): ExportRecord => ({
  id: m.id,
  realm: m.realmId,
  sender: m.senderId,
  recipient: recipientKeyOf(m),
  subject: m.topic,
  content: m.content,
  rendered_content: m.renderedContent ?? null,
  date_sent: m.dateSent,
  last_edit_time: m.editHistory?.[0]?.timestamp ?? null,
  edit_history: m.editHistory ? JSON.stringify(m.editHistory) : null,
  has_attachment: m.hasAttachment ?? false,
  has_image: m.hasImage ?? false,
  has_link: m.hasLink ?? false,
  is_channel_message: m.streamId !== null,
  sending_client: m.sendingClient ?? null,
});

/** A message's reactions as zerver_reaction rows, oldest first; ids are the export's own, from `firstId`. */
export const reactionRecords = (messageId: number, reactions: StoredReactions | undefined, firstId: number): ExportRecord[] =>
  Object.values(reactions ?? {})
    .sort((a, b) => a.addedAt - b.addedAt || a.userId - b.userId)
    .map((r, i) => ({
      id: firstId + i,
      message: messageId,
      user_profile: r.userId,
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      added_at: r.addedAt,
    }));
