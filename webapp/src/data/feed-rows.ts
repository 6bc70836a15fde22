// What the feed draws above each message: a date divider when the day changes, and a recipient bar
// (channel › topic, or the DM's people) when the conversation or the day changes; and the height a
// row is guessed to have before it is measured.
import type { Message } from '../api/types';
import { dmKey, messageUserIds } from './narrow';
import { sameTopic } from './topic-key';

export type FeedRow = { message: Message; local: boolean; dateDivider: boolean; recipientBar: boolean };

/** The calendar day of a timestamp, in the browser's time zone. */
const dayOf = (timestamp: number): string => new Date(timestamp * 1000).toDateString();

const sameConversation = (a: Message, b: Message, me: number): boolean =>
  a.type === 'stream'
    ? b.type === 'stream' && a.stream_id === b.stream_id && sameTopic(a.subject, b.subject)
    : b.type === 'private' && dmKey(messageUserIds(a), me) === dmKey(messageUserIds(b), me);

/** Rows for messages in order; `localFrom` is the index where the unconfirmed local echoes begin. */
export const feedRows = (messages: readonly Message[], me: number, localFrom = messages.length): FeedRow[] =>
  messages.map((message, i) => {
    const previous = messages[i - 1];
    const dateDivider = previous === undefined || dayOf(previous.timestamp) !== dayOf(message.timestamp);
    return {
      message,
      local: i >= localFrom,
      dateDivider,
      recipientBar: dateDivider || !sameConversation(previous!, message, me),
    };
  });

const ESTIMATE = { message: 64, recipientBar: 36, dateDivider: 30 };

export const estimatedHeight = (row: FeedRow): number =>
  ESTIMATE.message + (row.recipientBar ? ESTIMATE.recipientBar : 0) + (row.dateDivider ? ESTIMATE.dateDivider : 0);
