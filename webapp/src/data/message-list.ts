// The message list of the view on screen: which messages it holds, in order, whether it reaches
// the oldest and the newest, and which message to open at. Live messages join it only when it
// already reaches the newest (otherwise scrolling down fetches them in order).
import type { Message } from '../api/types';
import { narrowMatches, type FeedNarrow } from './narrow';

export type MessageList = {
  narrow: FeedNarrow;
  ids: readonly number[];
  foundOldest: boolean;
  foundNewest: boolean;
  /** The message to show first: the first unread, or undefined for the bottom. */
  target?: number;
  /** A fetch of older or newer messages is on its way. */
  loading: boolean;
};

export type MessagesAnswer = { messages: Message[]; found_oldest: boolean; found_newest: boolean; anchor?: number };

export const listFromAnswer = (narrow: FeedNarrow, answer: MessagesAnswer): MessageList => {
  const firstUnread = answer.messages.find((m) => !m.flags.includes('read'));
  return {
    narrow,
    ids: answer.messages.map((m) => m.id),
    foundOldest: answer.found_oldest,
    foundNewest: answer.found_newest,
    target: firstUnread?.id,
    loading: false,
  };
};

const merged = (a: readonly number[], b: readonly number[]): number[] => [...new Set([...a, ...b])].sort((x, y) => x - y);

/** Older messages fetched (anchor = the oldest held, excluded). */
export const withOlder = (list: MessageList, answer: MessagesAnswer): MessageList => ({
  ...list,
  ids: merged(
    answer.messages.map((m) => m.id),
    list.ids,
  ),
  foundOldest: answer.found_oldest,
  loading: false,
});

/** Newer messages fetched (anchor = the newest held, excluded). */
export const withNewer = (list: MessageList, answer: MessagesAnswer): MessageList => ({
  ...list,
  ids: merged(
    list.ids,
    answer.messages.map((m) => m.id),
  ),
  foundNewest: answer.found_newest,
});

export const appendLive = (list: MessageList, message: Message, me: number, muted: ReadonlySet<number>): MessageList => {
  if (!list.foundNewest || list.ids.includes(message.id) || !narrowMatches(list.narrow, message, me, muted)) return list;
  return { ...list, ids: merged(list.ids, [message.id]) };
};

export const removeFromList = (list: MessageList, ids: readonly number[]): MessageList => {
  const gone = new Set(ids);
  return list.ids.some((id) => gone.has(id)) ? { ...list, ids: list.ids.filter((id) => !gone.has(id)) } : list;
};

/** After a move: messages that left the view leave the list. */
export const refilter = (
  list: MessageList,
  messages: ReadonlyMap<number, Message>,
  me: number,
  muted: ReadonlySet<number>,
): MessageList => {
  if (list.narrow.kind === 'search') return list;
  const kept = list.ids.filter((id) => {
    const message = messages.get(id);
    return message !== undefined && narrowMatches(list.narrow, message, me, muted);
  });
  return kept.length === list.ids.length ? list : { ...list, ids: kept };
};

/**
 * Which ends of the list to fetch next, for a viewport `fromTop` pixels below the list's top and
 * `fromBottom` above its bottom: each end within `within` pixels that the server has more beyond,
 * so a feed held near its top keeps fetching until the oldest message (none while one is on its way).
 */
export const endsToFetch = (list: MessageList, fromTop: number, fromBottom: number, within: number): ('older' | 'newer')[] => {
  if (list.loading || list.ids.length === 0) return [];
  return [
    ...(fromTop < within && !list.foundOldest ? (['older'] as const) : []),
    ...(fromBottom < within && !list.foundNewest ? (['newer'] as const) : []),
  ];
};
