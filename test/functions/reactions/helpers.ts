// What the reaction tests share, against the development data: Denmark (1) is public with
// subscribers 7, 9, 10, 11, 12, 14, 15; core team (6) is private with protected history (9, 10,
// 11). Each test reacts to a message of its own (newMessage), by request (react, unreact), and
// expects the reaction events event() builds.
import { handler as add } from '../../../functions/reactions/add';
import { handler as remove } from '../../../functions/reactions/remove';
import { call } from '../../helpers/api';
import { putChannelMessage } from '../../helpers/channels';

export const DENMARK_SUBSCRIBERS = [7, 9, 10, 11, 12, 14, 15];
export const CORE_TEAM = 6;

let lastId = 1000;
/** An id for a test's own message, past every seeded one. */
export const nextMessageId = (): number => (lastId += 1);

/** A new message in a channel (Denmark unless said), received by `receivers` (its subscribers unless said). */
export const newMessage = async (streamId = 1, receivers = DENMARK_SUBSCRIBERS): Promise<number> => {
  const id = nextMessageId();
  await putChannelMessage(
    { id, realmId: 2, senderId: 10, streamId, topic: 'reactions', content: 'react to me', dateSent: 1_700_000_000 },
    receivers,
  );
  return id;
};

export const react = (as: string, messageId: number, params: Record<string, unknown>) =>
  call(add, { method: 'POST', path: `/messages/${messageId}/reactions`, pathParameters: { message_id: String(messageId) }, as, params });
export const unreact = (as: string, messageId: number, params: Record<string, unknown>) =>
  call(remove, {
    method: 'DELETE',
    path: `/messages/${messageId}/reactions`,
    pathParameters: { message_id: String(messageId) },
    as,
    params,
  });

export const OCTOPUS = { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
export const event = (op: 'add' | 'remove', userId: number, messageId: number, emoji = OCTOPUS) => ({
  type: 'reaction',
  op,
  user_id: userId,
  message_id: messageId,
  ...emoji,
});
