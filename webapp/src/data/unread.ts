// My unread messages: where each one is (a channel's topic or a DM conversation) and which mention
// me, from register's unread_msgs and then the message, flag, move and delete events. Counts are
// computed from it, never stored twice.
import type { Message, MessageDetails, UnreadMsgs } from '../api/types';
import type { Channels } from './channels';
import { isTopicMuted } from './channels';
import { dmKey, MENTION_FLAGS, messageUserIds } from './narrow';
import { topicKey } from './topic-key';

export type UnreadWhere = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; key: string };

export type Unread = { messages: ReadonlyMap<number, UnreadWhere>; mentions: ReadonlySet<number> };

export const unreadFromRegister = (summary: UnreadMsgs, me: number): Unread => {
  const messages = new Map<number, UnreadWhere>();
  for (const { stream_id, topic, unread_message_ids } of summary.streams)
    for (const id of unread_message_ids) messages.set(id, { kind: 'stream', streamId: stream_id, topic });
  for (const { other_user_id, unread_message_ids } of summary.pms)
    for (const id of unread_message_ids) messages.set(id, { kind: 'dm', key: dmKey([other_user_id], me) });
  for (const { user_ids_string, unread_message_ids } of summary.huddles)
    for (const id of unread_message_ids) messages.set(id, { kind: 'dm', key: dmKey(user_ids_string.split(',').map(Number), me) });
  return { messages, mentions: new Set(summary.mentions) };
};

const whereOf = (message: Pick<Message, 'type' | 'stream_id' | 'subject' | 'display_recipient'>, me: number): UnreadWhere =>
  message.type === 'stream'
    ? { kind: 'stream', streamId: message.stream_id!, topic: message.subject }
    : { kind: 'dm', key: dmKey(messageUserIds(message), me) };

/** A new message, unread unless its flags say read (my own messages arrive read). */
export const addUnreadMessage = (unread: Unread, message: Message, me: number): Unread => {
  if (message.flags.includes('read')) return unread;
  const mentioned = message.flags.some((flag) => MENTION_FLAGS.includes(flag));
  return {
    messages: new Map(unread.messages).set(message.id, whereOf(message, me)),
    mentions: mentioned ? new Set(unread.mentions).add(message.id) : unread.mentions,
  };
};

export const markRead = (unread: Unread, ids: readonly number[]): Unread => {
  if (!ids.some((id) => unread.messages.has(id) || unread.mentions.has(id))) return unread;
  const messages = new Map(unread.messages);
  const mentions = new Set(unread.mentions);
  for (const id of ids) {
    messages.delete(id);
    mentions.delete(id);
  }
  return { messages, mentions };
};

/** Messages marked unread again: update_message_flags tells where each one is. */
export const markUnread = (unread: Unread, details: Record<string, MessageDetails>, me: number): Unread => {
  const messages = new Map(unread.messages);
  const mentions = new Set(unread.mentions);
  for (const [id, detail] of Object.entries(details)) {
    messages.set(
      Number(id),
      detail.type === 'stream'
        ? { kind: 'stream', streamId: detail.stream_id!, topic: detail.topic ?? '' }
        : { kind: 'dm', key: dmKey(detail.user_ids ?? [], me) },
    );
    if (detail.mentioned) mentions.add(Number(id));
  }
  return { messages, mentions };
};

/** Messages moved to another channel or topic. */
export const moveUnread = (unread: Unread, ids: readonly number[], streamId: number, topic: string): Unread => {
  if (!ids.some((id) => unread.messages.has(id))) return unread;
  const messages = new Map(unread.messages);
  for (const id of ids) if (messages.has(id)) messages.set(id, { kind: 'stream', streamId, topic });
  return { ...unread, messages };
};

export type UnreadCounts = {
  /** What the title, the badge and the desktop app show: unmuted channel messages and all DMs. */
  total: number;
  /** By channel: its messages but those of muted topics (a muted channel's count is shown dimmed). */
  streams: ReadonlyMap<number, number>;
  /** By topicKey; a muted topic counts here but not in its channel or the total. */
  topics: ReadonlyMap<string, number>;
  dms: ReadonlyMap<string, number>;
  dmTotal: number;
  mentions: number;
};

const increment = <K>(map: Map<K, number>, key: K): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

export const unreadCounts = (unread: Unread, channels: Channels): UnreadCounts => {
  const streams = new Map<number, number>();
  const topics = new Map<string, number>();
  const dms = new Map<string, number>();
  let total = 0;
  let dmTotal = 0;
  for (const where of unread.messages.values()) {
    if (where.kind === 'dm') {
      increment(dms, where.key);
      dmTotal += 1;
      total += 1;
      continue;
    }
    const key = topicKey(where.streamId, where.topic);
    increment(topics, key);
    // A muted channel keeps its (dimmed) count; a muted topic counts only on its own row.
    if (channels.topicPolicies.get(key) !== 1) increment(streams, where.streamId);
    if (channels.subs.has(where.streamId) && !isTopicMuted(channels, where.streamId, where.topic)) total += 1;
  }
  return { total, streams, topics, dms, dmTotal, mentions: unread.mentions.size };
};
