// The message object of GET /messages and GET /messages/{id} (upstream's MessageDict:
// build_message_dict, hydrate_recipient_info, finalize_payload), from a stored message and what
// the caller loaded for it. Pure: the caller reads the sender, the channel and the participants.
import { renderPlainMarkdown } from '../render';
import { gravatarUrl } from './avatar';
import type { Message } from './message';
import type { User } from './user';

/** Upstream's Message.EMPTY_TOPIC_FALLBACK_NAME, shown to clients that did not ask for "". */
export const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';

/** Upstream's flag order (UserMessage.flags bit order); `wildcard_mentioned` follows either wildcard. */
const FLAG_ORDER = [
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

/** The flags as the API lists them: upstream's order, `wildcard_mentioned` added, internal flags left out. */
export const apiFlags = (flags: string[]): string[] => {
  const out = FLAG_ORDER.filter((f) => flags.includes(f));
  if (flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned') || flags.includes('wildcard_mentioned')) {
    out.push('wildcard_mentioned');
  }
  return out;
};

/** A stable positive id for a group conversation (this service keeps no recipient rows). */
const conversationId = (userIds: number[]): number => {
  let hash = 2166136261;
  for (const ch of userIds.join(',')) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash % 2147483647;
};

/** The flags of a message the viewer may see but did not receive. */
export const HISTORICAL_FLAGS = ['read', 'historical'];

export type MessageObjectOptions = { applyMarkdown: boolean; clientGravatar: boolean; allowEmptyTopicName: boolean };

/** What the builder needs besides the message: loaded by the caller, once per page. */
export type MessageObjectContext = {
  viewerId: number;
  realmStringId: string;
  users: Map<number, User>;
  channelNames: Map<number, string>;
};

const displayUser = (u: User) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false });

/**
 * A message as the API shows it to the viewer, with `flags`. A direct message's
 * display_recipient: one entry for a self-message, the two participants ordered by email for a
 * one-on-one, everyone by id for a group. `recipient_id` is derived from the conversation (this
 * service has no recipient rows): the channel's id, or for direct messages a stable id of the
 * conversation as the viewer sees it.
 */
export const buildMessageObject = (m: Message, flags: string[], ctx: MessageObjectContext, opts: MessageObjectOptions): Record<string, unknown> => {
  const sender = ctx.users.get(m.senderId);
  const rendered = m.renderedContent ?? renderPlainMarkdown(m.content);
  const base: Record<string, unknown> = {
    id: m.id,
    sender_id: m.senderId,
    sender_full_name: sender?.fullName ?? 'Unknown user',
    sender_email: sender?.email ?? `user${m.senderId}@unknown.invalid`,
    sender_realm_str: ctx.realmStringId,
    avatar_url: opts.clientGravatar || !sender ? null : gravatarUrl(sender.email),
    content: opts.applyMarkdown ? rendered : m.content,
    content_type: opts.applyMarkdown ? 'text/html' : 'text/x-markdown',
    client: m.sendingClient ?? 'Internal',
    timestamp: m.dateSent,
    is_me_message: m.isMeMessage ?? m.content.startsWith('/me '),
    reactions: [],
    submessages: [],
    flags: apiFlags(flags),
  };
  if (m.streamId !== null) {
    const topic = m.topic === '' && !opts.allowEmptyTopicName ? EMPTY_TOPIC_FALLBACK_NAME : m.topic;
    return {
      ...base,
      type: 'stream',
      display_recipient: ctx.channelNames.get(m.streamId) ?? '',
      stream_id: m.streamId,
      recipient_id: m.streamId,
      subject: topic,
      topic_links: m.topicLinks ?? [],
    };
  }
  const participants = m.dmUserIds.map((id) => ctx.users.get(id)).filter((u): u is User => u !== undefined);
  const recipients =
    participants.length === 2
      ? [...participants].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
      : [...participants].sort((a, b) => a.id - b.id);
  const others = m.dmUserIds.filter((id) => id !== ctx.viewerId);
  return {
    ...base,
    type: 'private',
    display_recipient: recipients.map(displayUser),
    recipient_id: m.dmUserIds.length <= 2 ? (others[0] ?? ctx.viewerId) : conversationId(m.dmUserIds),
    subject: '',
    topic_links: [],
  };
};
