// Register state about the caller's messages: max_message_id ("message"), unread_msgs ("message"
// and "update_message_flags" both wanted), starred_messages and recent_private_conversations.
// Every read is of the caller's own index entries: the cost follows what the caller has unread,
// starred or talked in, never the size of the organization or of its history.
import { MAX_UNREAD_MESSAGES, WILDCARD_MENTION_FLAGS, type UnreadMessage } from '../models/message';
import { isTopicMessageMuted, userTopicLookupKey, type VisibilityPolicyValue } from '../models/user-topic';
import * as messagesStore from '../store/messages';
import { ownSubscriptions } from './context';
import type { StateBuilder, StateContext } from './registry';
import { ownUserTopics } from './user-topics';

/** Upstream's bounds: starred ids sent, conversations sent (the unread messages considered: MAX_UNREAD_MESSAGES). */
const MAX_STARRED_MESSAGES = 10000;
const MAX_RECENT_CONVERSATIONS = 1000;

type UnreadMsgs = {
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
};

const ascending = (a: number, b: number): number => a - b;

/**
 * Groups unread messages as upstream does: one-on-one conversations by the other user (oneself
 * for self-messages), group conversations by their sorted participants, channel messages by
 * channel and topic (case-insensitively, in channel id then topic order). Muted messages (a muted
 * channel's, unless their topic is unmuted or followed; a muted topic's) are listed but not
 * counted, and their wildcard mentions are not mentions.
 */
const summarizeUnread = (
  userId: number,
  messages: UnreadMessage[],
  opts: {
    mutedChannelIds: Set<number>;
    /** The user's policy for a channel's topic (0: none). */
    topicPolicy: (channelId: number, topic: string) => VisibilityPolicyValue;
    emptyTopicName: string | undefined;
    truncated: boolean;
  },
): UnreadMsgs => {
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions = new Set<number>();
  let count = 0;
  for (const m of messages) {
    const flags = new Set(m.flags);
    const muted = m.streamId !== null && isTopicMessageMuted(opts.mutedChannelIds.has(m.streamId), opts.topicPolicy(m.streamId, m.topic));
    if (m.streamId !== null) {
      const topic = m.topic === '' && opts.emptyTopicName !== undefined ? opts.emptyTopicName : m.topic;
      const key = `${m.streamId}\u0000${topic.toLowerCase()}`;
      if (!streams.has(key)) streams.set(key, { stream_id: m.streamId, topic, unread_message_ids: [] });
      streams.get(key)!.unread_message_ids.push(m.messageId);
      if (!muted) count += 1;
    } else if (m.dmUserIds.length <= 2) {
      const other = m.dmUserIds.find((id) => id !== userId) ?? userId;
      pms.set(other, [...(pms.get(other) ?? []), m.messageId]);
      count += 1;
    } else {
      const key = [...m.dmUserIds].sort(ascending).join(',');
      huddles.set(key, [...(huddles.get(key) ?? []), m.messageId]);
      count += 1;
    }
    if (flags.has('mentioned')) mentions.add(m.messageId);
    if (WILDCARD_MENTION_FLAGS.some((f) => flags.has(f)) && !muted) mentions.add(m.messageId);
  }
  const streamKeys = [...streams.keys()].sort((a, b) => {
    const [sa, ta] = [streams.get(a)!.stream_id, a.slice(a.indexOf('\u0000') + 1)];
    const [sb, tb] = [streams.get(b)!.stream_id, b.slice(b.indexOf('\u0000') + 1)];
    return sa - sb || (ta < tb ? -1 : ta > tb ? 1 : 0);
  });
  return {
    pms: [...pms.keys()]
      .sort(ascending)
      .map((id) => ({ other_user_id: id, sender_id: id, unread_message_ids: pms.get(id)!.sort(ascending) })),
    streams: streamKeys.map((k) => {
      const entry = streams.get(k)!;
      return { ...entry, unread_message_ids: entry.unread_message_ids.sort(ascending) };
    }),
    huddles: [...huddles.keys()].sort().map((k) => ({ user_ids_string: k, unread_message_ids: huddles.get(k)!.sort(ascending) })),
    mentions: [...mentions].sort(ascending),
    count,
    old_unreads_missing: opts.truncated,
  };
};

const unreadMsgs = async (ctx: StateContext): Promise<UnreadMsgs> => {
  const user = ctx.user;
  const emptyTopicName = ctx.capabilities.empty_topic_name ? undefined : ctx.realm.emptyTopicDisplayName;
  if (!user) return summarizeUnread(0, [], { mutedChannelIds: new Set(), topicPolicy: () => 0, emptyTopicName, truncated: false });
  const [{ messages, truncated }, subscriptions, userTopics] = await Promise.all([
    messagesStore.listNewestUnreadOfUser(user.id, MAX_UNREAD_MESSAGES),
    ownSubscriptions(ctx),
    ownUserTopics(ctx),
  ]);
  const mutedChannelIds = new Set(subscriptions.filter((s) => s.active && s.isMuted).map((s) => s.channelId));
  const policies = new Map(userTopics.map((t) => [userTopicLookupKey(t.channelId, t.topic), t.visibilityPolicy]));
  const topicPolicy = (channelId: number, topic: string) => policies.get(userTopicLookupKey(channelId, topic)) ?? 0;
  return summarizeUnread(user.id, messages, { mutedChannelIds, topicPolicy, emptyTopicName, truncated });
};

/** "message": the newest message id the caller received (-1 when none, and for spectators). */
export const maxMessageIdState: StateBuilder = async (ctx) => {
  if (!ctx.want('message')) return {};
  const newest = ctx.user ? await messagesStore.getNewestMessageIdOfUser(ctx.user.id) : undefined;
  return { max_message_id: newest ?? -1 };
};

/** "message" + "update_message_flags": the unread summary (empty for spectators). */
export const unreadMsgsState: StateBuilder = async (ctx) => {
  if (!(ctx.want('message') && ctx.want('update_message_flags'))) return {};
  return { unread_msgs: await unreadMsgs(ctx) };
};

/** "starred_messages": starred message ids, ascending. */
export const starredMessagesState: StateBuilder = async (ctx) => {
  if (!ctx.want('starred_messages')) return {};
  return { starred_messages: ctx.user ? await messagesStore.listStarredIdsOfUser(ctx.user.id, MAX_STARRED_MESSAGES) : [] };
};

/** "recent_private_conversations": newest first; user_ids without the caller ([] for self). */
export const recentPrivateConversationsState: StateBuilder = async (ctx) => {
  if (!ctx.want('recent_private_conversations')) return {};
  const conversations = ctx.user ? await messagesStore.listDmConversationsOfUser(ctx.user.id) : [];
  return {
    recent_private_conversations: conversations
      .sort((a, b) => b.maxMessageId - a.maxMessageId)
      .slice(0, MAX_RECENT_CONVERSATIONS)
      .map((c) => ({ max_message_id: c.maxMessageId, user_ids: [...c.userIds].sort(ascending) })),
  };
};
