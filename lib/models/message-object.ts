// The message object of the API (upstream's MessageDict), as the `message` event and the fetches
// show it, built from the stored message and the users it names. Per-viewer adaptations (the
// viewer's flags, `recipient_id` of a 1:1 conversation, apply_markdown, client_gravatar, the empty
// topic's name) are applied by adaptMessageForViewer, so one stored event serves every queue.
import { avatarUrl, isGravatarUrl } from './avatar';
import { WILDCARD_MENTION_FLAGS, type Message } from './message';
import {
  lastEditTimestamp,
  lastMovedTimestamp,
  visibleEditHistory,
  type EditHistoryEntry,
  type EditHistoryVisibility,
} from './message-edit';
import { apiReactions } from './reaction';
import { apiSubmessages, type StoredSubmessage } from './submessage';
import { EMPTY_TOPIC_FALLBACK_NAME } from './message-send';
import type { User } from './user';

export type MessageObject = Record<string, unknown> & { id: number; content: string; subject: string };

/** The user fields a message object shows of its sender and DM participants. */
export type MessageUser = Pick<User, 'id' | 'email' | 'fullName' | 'avatarSource' | 'avatarVersion' | 'avatarPath'>;

/**
 * `recipient_id`: this service keeps no recipient table. A channel message uses the channel id; a
 * direct-message group a stable number derived from its participants; a 1:1 conversation the
 * other participant's user id (as upstream, where both sides see the other's personal recipient).
 */
const groupRecipientId = (ids: number[]): number => {
  let h = 0x811c9dc5;
  for (const ch of ids.join(',')) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h & 0x7fffffff;
};

export const recipientIdFor = (m: Pick<Message, 'streamId' | 'dmUserIds' | 'senderId'>, viewerId: number): number => {
  if (m.streamId !== null) return m.streamId;
  if (m.dmUserIds.length <= 2) return m.dmUserIds.find((id) => id !== viewerId) ?? viewerId;
  return groupRecipientId(m.dmUserIds);
};

/**
 * What a message object shows of the message's edits and moves (upstream's messages_for_ids): when
 * its content was last edited, when it was last moved (a resolve or unresolve is no move), and the
 * history as the organization lets its members see it. Nothing for a message never edited or moved.
 */
const editFields = (history: Message['editHistory'], visibility: EditHistoryVisibility): Record<string, unknown> => {
  if (!history || history.length === 0) return {};
  const edited = lastEditTimestamp(history);
  const moved = lastMovedTimestamp(history);
  const visible = visibleEditHistory(history, visibility);
  return {
    ...(edited === undefined ? {} : { last_edit_timestamp: edited }),
    ...(moved === undefined ? {} : { last_moved_timestamp: moved }),
    ...(visible === undefined ? {} : { edit_history: visible }),
  };
};

/**
 * The message object with rendered content, for a viewer who is `viewerId`. `channelName` is the
 * channel's current name; `participants` the DM participants (display_recipient);
 * `editHistoryVisibility` the organization's policy on showing the edit history; `submessages`
 * the submessages after its widget (the widget itself is on the message).
 */
export const buildMessageObject = (
  m: Message,
  ctx: {
    sender: MessageUser;
    realmStringId: string;
    channelName?: string;
    participants?: MessageUser[];
    viewerId: number;
    editHistoryVisibility: EditHistoryVisibility;
    /** Its submessages after its widget (read from their items when `submessageCount` says it has any). */
    submessages?: StoredSubmessage[];
  },
): MessageObject => {
  const base: MessageObject = {
    id: m.id,
    sender_id: m.senderId,
    sender_full_name: ctx.sender.fullName,
    sender_email: ctx.sender.email,
    sender_realm_str: ctx.realmStringId,
    avatar_url: avatarUrl(ctx.sender),
    content: m.renderedContent ?? '<p>[Zulip note: Sorry, we could not understand the formatting of your message]</p>',
    content_type: 'text/html',
    client: m.sendingClient ?? 'Internal',
    recipient_id: recipientIdFor(m, ctx.viewerId),
    subject: m.topic,
    topic_links: m.topicLinks ?? [],
    timestamp: m.dateSent,
    is_me_message: m.isMeMessage ?? false,
    reactions: apiReactions(m.reactions),
    submessages: apiSubmessages(m.id, m.widget, ctx.submessages),
    type: m.streamId === null ? 'private' : 'stream',
    ...editFields(m.editHistory, ctx.editHistoryVisibility),
  };
  if (m.streamId !== null) return { ...base, display_recipient: ctx.channelName ?? '', stream_id: m.streamId };
  const participants = ctx.participants ?? [];
  const entries = participants.map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false }));
  // 1:1: ordered by email (plain code-unit order); self: one entry; groups: by id.
  if (participants.length === 2) entries.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  else entries.sort((a, b) => a.id - b.id);
  return { ...base, display_recipient: entries };
};

/** What a viewer's queue or request changes in a message object. */
export type ViewerOptions = {
  viewerId: number;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  /** The raw Markdown, shown when apply_markdown is false. */
  rawContent: string;
  dmUserIds: number[];
  streamId: number | null;
  senderId: number;
};

/** An edit history entry with the empty topic shown by its name, for a client that does not show empty topics. */
const namedTopicsOf = (entry: EditHistoryEntry): EditHistoryEntry => ({
  ...entry,
  ...(entry.topic === '' ? { topic: EMPTY_TOPIC_FALLBACK_NAME } : {}),
  ...(entry.prev_topic === '' ? { prev_topic: EMPTY_TOPIC_FALLBACK_NAME } : {}),
});

export const adaptMessageForViewer = (message: MessageObject, opts: ViewerOptions): MessageObject => {
  const out: MessageObject = { ...message };
  if (!opts.applyMarkdown) {
    out.content = opts.rawContent;
    out.content_type = 'text/x-markdown';
  }
  if (opts.clientGravatar && isGravatarUrl(out.avatar_url as string | null)) out.avatar_url = null;
  if (out.type === 'stream' && !opts.allowEmptyTopicName) {
    if (out.subject === '') out.subject = EMPTY_TOPIC_FALLBACK_NAME;
    if (Array.isArray(out.edit_history)) out.edit_history = (out.edit_history as EditHistoryEntry[]).map(namedTopicsOf);
  }
  out.recipient_id = recipientIdFor({ streamId: opts.streamId, dmUserIds: opts.dmUserIds, senderId: opts.senderId }, opts.viewerId);
  return out;
};

/** Upstream's API flags (UserMessage.flags less the internal ones), in its bit order. */
export const API_FLAGS: readonly string[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
];
export const apiFlags = (flags: string[]): string[] => {
  const ordered = API_FLAGS.filter((f) => flags.includes(f));
  const extra = flags.filter((f) => !API_FLAGS.includes(f) && f !== 'wildcard_mentioned');
  const wildcard = WILDCARD_MENTION_FLAGS.some((f) => flags.includes(f));
  return [...ordered, ...extra, ...(wildcard ? ['wildcard_mentioned'] : [])];
};

/** The flags of a message the viewer may see but did not receive (upstream's historical access). */
export const HISTORICAL_FLAGS = ['read', 'historical'];
