// Who is typing where, from typing events; an entry lapses on its own (upstream's 15 s) when no
// renewal comes, as a start may never get its stop.
import type { ServerEvent } from '../api/types';
import { dmKey, type FeedNarrow } from './narrow';
import { sameTopic } from './topic-key';

const TYPING_EXPIRY_MS = 15_000;

export type Typist = {
  userId: number;
  where: { kind: 'dm'; key: string } | { kind: 'stream'; streamId: number; topic: string };
  expiresAt: number;
};

type TypingEvent = Extract<ServerEvent, { type: 'typing' }>;

const sameWhere = (a: Typist['where'], b: Typist['where']): boolean =>
  a.kind === 'dm' ? b.kind === 'dm' && a.key === b.key : b.kind === 'stream' && a.streamId === b.streamId && sameTopic(a.topic, b.topic);

export const applyTyping = (typists: readonly Typist[], event: TypingEvent, me: number, now: number): Typist[] => {
  const where: Typist['where'] =
    event.message_type === 'stream'
      ? { kind: 'stream', streamId: event.stream_id!, topic: event.topic ?? '' }
      : { kind: 'dm', key: dmKey([...(event.recipients ?? []).map((r) => r.user_id), event.sender.user_id], me) };
  const others = typists.filter((t) => t.expiresAt > now && !(t.userId === event.sender.user_id && sameWhere(t.where, where)));
  return event.op === 'start' ? [...others, { userId: event.sender.user_id, where, expiresAt: now + TYPING_EXPIRY_MS }] : others;
};

/** A sender's message ends their typing there. */
export const stopTypingOf = (typists: readonly Typist[], userId: number): readonly Typist[] =>
  typists.some((t) => t.userId === userId) ? typists.filter((t) => t.userId !== userId) : typists;

/** Who is typing in a view (a topic or a DM conversation), now. */
export const typistsIn = (typists: readonly Typist[], narrow: FeedNarrow, me: number, now: number): number[] => {
  const where: Typist['where'] | undefined =
    narrow.kind === 'dm'
      ? { kind: 'dm', key: dmKey(narrow.userIds, me) }
      : narrow.kind === 'channel' && narrow.topic !== undefined
        ? { kind: 'stream', streamId: narrow.streamId, topic: narrow.topic }
        : undefined;
  if (!where) return [];
  return typists.filter((t) => t.expiresAt > now && sameWhere(t.where, where)).map((t) => t.userId);
};
