// GET /users/me/{stream_id}/topics, after upstream's test_subs.py topic history tests, against the
// development data: Verona (3) has the empty topic (newest message 14) and "test" (7); core team
// (6) is private with protected history (subscribers 9, 10, 11; "secret plans", message 3);
// Denmark (1) is public and Polonius (13), a guest, is not in it; Rome (5) is web-public; Old
// Verona (7) is archived; Britain (10) is another organization's. New messages go through the
// send writer (writeNewMessage), as POST /messages stores them.
import { handler } from '../../../functions/topics/list';
import type { Message } from '../../../lib/models/message';
import * as channelsStore from '../../../lib/store/channels';
import { dbMetrics } from '../../../lib/store/client';
import * as messagesStore from '../../../lib/store/messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel } from '../../helpers/channels';

const topics = (as: string, streamId: number, params: Record<string, unknown> = {}) =>
  call(handler, { method: 'GET', path: `/users/me/${streamId}/topics`, pathParameters: { stream_id: String(streamId) }, as, params });

/** Sends a message through the send writer to `receivers`; returns its id. */
const send = async (streamId: number, topic: string, receivers: number[]): Promise<number> => {
  const id = await messagesStore.allocateMessageId(2);
  const message: Message = { id, realmId: 2, senderId: 10, streamId, topic, dmUserIds: [], content: 'hi', dateSent: 1_900_000_000 };
  const channel = (await channelsStore.getChannel(2, streamId))!;
  await messagesStore.writeNewMessage(
    message,
    receivers.map((userId) => ({ userId, flags: ['read'] })),
    channel,
  );
  return id;
};

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists every topic of a public channel newest first, the empty topic under the display name', async () => {
    expect(expectSuccess(await topics('iago@zulip.com', 3))).toEqual({
      result: 'success',
      msg: '',
      topics: [
        { name: 'general chat', max_id: 14 },
        { name: 'test', max_id: 7 },
      ],
    });
  });

  it('names the empty topic "" for a client that allows it', async () => {
    expect(expectSuccess(await topics('iago@zulip.com', 3, { allow_empty_topic_name: true })).topics).toEqual([
      { name: '', max_id: 14 },
      { name: 'test', max_id: 7 },
    ]);
  });

  it('lists a topic once, under the spelling of its newest message, moved first by a new message', async () => {
    const id = await send(4, 'Gondolas', [7, 9, 14]);
    const newer = await send(4, 'GONDOLAS', [7, 9, 14]);
    expect(id).toBeLessThan(newer);
    expect(expectSuccess(await topics('iago@zulip.com', 4)).topics).toEqual([
      { name: 'GONDOLAS', max_id: newer },
      { name: 'canals', max_id: 1 },
    ]);
  });

  it('shows a subscriber of a protected-history channel only the topics of messages they received', async () => {
    const id = await send(6, 'after iago', [9, 10]);
    expect(expectSuccess(await topics('hamlet@zulip.com', 6)).topics).toEqual([
      { name: 'after iago', max_id: id },
      { name: 'secret plans', max_id: 3 },
    ]);
    expect(expectSuccess(await topics('iago@zulip.com', 6)).topics).toEqual([{ name: 'secret plans', max_id: 3 }]);
  });

  it('shows each subscriber the newest message of a protected-history topic that they received', async () => {
    const both = await send(6, 'shared', [9, 10, 11]);
    const hamletOnly = await send(6, 'shared', [9, 10]);
    expect(expectSuccess(await topics('hamlet@zulip.com', 6)).topics[0]).toEqual({ name: 'shared', max_id: hamletOnly });
    expect(expectSuccess(await topics('iago@zulip.com', 6)).topics[0]).toEqual({ name: 'shared', max_id: both });
  });

  it('shows a subscriber of a private channel with shared history every topic', async () => {
    await changeChannel(2, 6, { historyPublicToSubscribers: true });
    try {
      expect(expectSuccess(await topics('iago@zulip.com', 6)).topics.map((t: { name: string }) => t.name)).toContain('after iago');
    } finally {
      await changeChannel(2, 6, { historyPublicToSubscribers: false });
    }
  });

  it('lists the topics of a web-public channel for a guest who is not subscribed', async () => {
    expect(expectSuccess(await topics('polonius@zulip.com', 5)).topics).toEqual([{ name: 'announcements', max_id: 4 }]);
  });

  it('lists the topics of an archived channel, as upstream does since feature level 480 (none before its first message)', async () => {
    expect(expectSuccess(await topics('iago@zulip.com', 7)).topics).toEqual([]);
    const id = await send(7, 'old times', [11]);
    expect(expectSuccess(await topics('iago@zulip.com', 7)).topics).toEqual([{ name: 'old times', max_id: id }]);
  });

  it.each([
    ['a channel that does not exist', 'iago', 9999],
    ["another organization's channel", 'iago', 10],
    ['a private channel the user is not subscribed to', 'othello', 6],
    ['a public channel for a guest who is not subscribed', 'polonius', 1],
  ])('answers "Invalid channel ID" for %s', async (_what, who, streamId) => {
    expectError(await topics(`${who}@zulip.com`, streamId), 'Invalid channel ID');
  });

  it.each([
    ['not JSON', 'maybe', 'allow_empty_topic_name is not valid JSON'],
    ['not a boolean', '1', 'allow_empty_topic_name is not a boolean'],
  ])('refuses an allow_empty_topic_name that is %s', async (_what, value, msg) => {
    expectError(await topics('iago@zulip.com', 3, { allow_empty_topic_name: value }), msg);
  });

  it('costs the same DynamoDB requests however many messages the channel has', async () => {
    const cost = async () => {
      dbMetrics.reset();
      expectSuccess(await topics('iago@zulip.com', 1));
      return dbMetrics.snapshot().requests;
    };
    const before = await cost();
    for (let i = 0; i < 30; i += 1) await send(1, 'busy', [11]);
    expect(await cost()).toBe(before);
    expect(expectSuccess(await topics('iago@zulip.com', 1)).topics.map((t: { name: string }) => t.name)).toEqual(['busy', 'plans']);
  });
});
