// The views the app shows and which messages belong to each: the one place that decides whether a
// message is in a view (for live updates), and what a view asks GET /messages for.
import type { Message } from '../api/types';
import { apiTerms, type SearchTerm } from './search';
import { sameTopic } from './topic-key';

export type Narrow =
  | { kind: 'inbox' }
  | { kind: 'feed' }
  | { kind: 'channel'; streamId: number; topic?: string }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'mentioned' }
  | { kind: 'starred' }
  | { kind: 'search'; terms: SearchTerm[] };

/** The views that show a message feed (all but the inbox). */
export type FeedNarrow = Exclude<Narrow, { kind: 'inbox' }>;

export const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** A DM conversation's participants other than me (me alone for my notes to self), sorted. */
export const dmPeers = (userIds: number[], me: number): number[] => {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return others.length === 0 ? [me] : others;
};

/** The key of a DM conversation, from any list of its participants. */
export const dmKey = (userIds: number[], me: number): string => dmPeers(userIds, me).join(',');

/** A direct message's participants, me included. */
export const messageUserIds = (message: Pick<Message, 'display_recipient'>): number[] =>
  Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];

/** Whether a message belongs to a view; the search view takes nothing live (the server decides). */
export const narrowMatches = (narrow: FeedNarrow, message: Message, me: number, mutedStreamIds: ReadonlySet<number>): boolean => {
  switch (narrow.kind) {
    case 'feed':
      return message.type === 'private' || !mutedStreamIds.has(message.stream_id!);
    case 'channel':
      return (
        message.type === 'stream' &&
        message.stream_id === narrow.streamId &&
        (narrow.topic === undefined || sameTopic(narrow.topic, message.subject))
      );
    case 'dm':
      return message.type === 'private' && dmKey(messageUserIds(message), me) === dmKey(narrow.userIds, me);
    case 'mentioned':
      return message.flags.some((flag) => MENTION_FLAGS.includes(flag));
    case 'starred':
      return message.flags.includes('starred');
    case 'search':
      return false;
  }
};

type Term = { operator: string; operand: string | number | number[]; negated?: boolean };

/** The `narrow` parameter of GET /messages for a view. */
export const apiNarrow = (narrow: FeedNarrow, me: number): Term[] => {
  switch (narrow.kind) {
    case 'feed':
      return [{ operator: 'in', operand: 'home' }];
    case 'channel':
      return [
        { operator: 'channel', operand: narrow.streamId },
        ...(narrow.topic === undefined ? [] : [{ operator: 'topic', operand: narrow.topic }]),
      ];
    case 'dm':
      return [{ operator: 'dm', operand: dmPeers(narrow.userIds, me) }];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'search':
      return apiTerms(narrow.terms);
  }
};

export const sameNarrow = (a: Narrow, b: Narrow): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The conversation a message is in: its channel's topic, or its DM conversation. */
export const conversationOf = (message: Message, me: number): FeedNarrow =>
  message.type === 'stream'
    ? { kind: 'channel', streamId: message.stream_id!, topic: message.subject }
    : { kind: 'dm', userIds: dmPeers(messageUserIds(message), me) };
