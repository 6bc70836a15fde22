// Topic policies that sending a channel message changes, after upstream's
// AutomaticallyFollowTopicsTests and AutomaticallyUnmuteTopicsTests (test_user_topics.py) and
// test_message_to_stream_with_automatically_change_visibility_policy: the sender's
// automatically_follow_topics_policy (default 3, on initiation) and
// automatically_unmute_topics_in_muted_streams_policy (default 2, on send), and mentioned users'
// automatically_follow_topics_where_mentioned (default true). Development data: Verona (3) has
// subscribers 6, 7, 8, 10, 11, 12, 14, 15, 16 and the topic "test"; Iago (11) muted Scotland (2),
// whose topic is "highlands"; core team (6) is private with protected history (9, 10, 11).
// Bots' policies never change automatically.
import { handler as sendHandler } from '../../../functions/messages/send';
import { handler as updateSettings } from '../../../functions/settings/update';
import { freezeClock } from '../../../lib/clock';
import type { Message } from '../../../lib/models/message';
import * as channelsStore from '../../../lib/store/channels';
import * as messagesStore from '../../../lib/store/messages';
import * as userTopicsStore from '../../../lib/store/user-topics';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const NOW = 1_900_000_000;

const send = async (as: string, to: number, topic: string, content = 'hello') =>
  expectSuccess(await call(sendHandler, { method: 'POST', path: '/messages', as, params: { type: 'stream', to, topic, content } }));
const settings = async (as: string, params: Record<string, unknown>) =>
  expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as, params }));
const policyOf = async (userId: number, channelId: number, topic: string) =>
  (await userTopicsStore.getUserTopic(userId, channelId, topic, { consistent: true }))?.visibilityPolicy ?? 0;

// The shared test setup resets the clock after each test.
beforeEach(() => freezeClock(NOW * 1000));

describe('POST /messages: automatic topic policies', () => {
  it('makes the sender of a new topic follow it, answering automatic_new_visibility_policy 3, with the events before the message', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['user_topic', 'message'] });
    const body = await send('hamlet@zulip.com', 3, 'a new topic');
    expect(body).toEqual({ result: 'success', msg: '', id: body.id, automatic_new_visibility_policy: 3 });
    const events = await queue.drain();
    expect(events.map((e) => e.type)).toEqual(['user_topic', 'message']);
    expect(events[0]).toEqual({ type: 'user_topic', stream_id: 3, topic_name: 'a new topic', last_updated: NOW, visibility_policy: 3 });
  });

  it('changes nothing for a second message to the topic, or for another sender to it', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['user_topic'] });
    expect(await send('hamlet@zulip.com', 3, 'A NEW TOPIC')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await send('ZOE@zulip.com', 3, 'a new topic')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await queue.drain()).toEqual([]);
    expect(await policyOf(7, 3, 'a new topic')).toBe(0);
  });

  it('follows on every send under "on send", and never under "never"', async () => {
    await settings('othello@zulip.com', { automatically_follow_topics_policy: 2 });
    expect((await send('othello@zulip.com', 3, 'test')).automatic_new_visibility_policy).toBe(3);
    await settings('prospero@zulip.com', { automatically_follow_topics_policy: 4 });
    expect(await send('prospero@zulip.com', 3, 'prospero starts this')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policyOf(14, 3, 'prospero starts this')).toBe(0);
  });

  it('unmutes a topic of a muted channel on send (the default), answering 2', async () => {
    const body = await send('iago@zulip.com', 2, 'highlands');
    expect(body.automatic_new_visibility_policy).toBe(2);
    expect(await policyOf(11, 2, 'highlands')).toBe(2);
  });

  it('never lowers a followed topic, and leaves a muted topic of an unmuted channel muted', async () => {
    await userTopicsStore.createUserTopic({ userId: 6, channelId: 3, topic: 'followed', visibilityPolicy: 3, lastUpdated: NOW });
    await userTopicsStore.createUserTopic({ userId: 6, channelId: 3, topic: 'muted', visibilityPolicy: 1, lastUpdated: NOW });
    await settings('AARON@zulip.com', { automatically_unmute_topics_in_muted_streams_policy: 1 });
    expect(await send('AARON@zulip.com', 3, 'followed')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await send('AARON@zulip.com', 3, 'muted')).not.toHaveProperty('automatic_new_visibility_policy');
    expect([await policyOf(6, 3, 'followed'), await policyOf(6, 3, 'muted')]).toEqual([3, 1]);
  });

  it('makes a loudly mentioned subscriber follow the topic, but not a silently mentioned one or one who muted it', async () => {
    await userTopicsStore.createUserTopic({ userId: 12, channelId: 3, topic: 'mentions', visibilityPolicy: 1, lastUpdated: NOW });
    const cordelia = await openQueue('cordelia@zulip.com', { eventTypes: ['user_topic'] });
    await send('ZOE@zulip.com', 3, 'mentions', "hi @**Cordelia, Lear's daughter** @_**King Hamlet** @**Othello, the Moor of Venice**");
    expect(await cordelia.drain()).toEqual([
      { type: 'user_topic', stream_id: 3, topic_name: 'mentions', last_updated: NOW, visibility_policy: 3 },
    ]);
    expect(await policyOf(10, 3, 'mentions')).toBe(0);
    expect(await policyOf(12, 3, 'mentions')).toBe(1);
  });

  it("never changes a bot's policies", async () => {
    expect(await send('default-bot@zulip.com', 3, 'a bot starts this')).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await policyOf(16, 3, 'a bot starts this')).toBe(0);
  });

  it('counts a protected-history topic as started by a sender who received none of its messages', async () => {
    // A message of core team that Desdemona and Hamlet received, Iago not (history is protected).
    const id = await messagesStore.allocateMessageId(2);
    const message: Message = {
      id,
      realmId: 2,
      senderId: 9,
      streamId: 6,
      topic: 'before iago',
      dmUserIds: [],
      content: 'hi',
      dateSent: NOW,
    };
    await messagesStore.writeNewMessage(
      message,
      [9, 10].map((userId) => ({ userId, flags: ['read'] })),
      (await channelsStore.getChannel(2, 6))!,
    );
    expect((await send('iago@zulip.com', 6, 'before iago')).automatic_new_visibility_policy).toBe(3);
    expect(await send('hamlet@zulip.com', 6, 'before iago')).not.toHaveProperty('automatic_new_visibility_policy');
  });
});
