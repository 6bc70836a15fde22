// Reactions and a channel's topics over HTTP through serverless-offline with the zulip-js client:
// one user's reaction to a channel message arrives as a reaction event on another subscriber's
// queue; the topics list is what the terminal client asks for on every new channel message; a
// muted topic arrives as a user_topic event on the same user's queue (zulip-js has no method for
// POST /user_topics or the legacy muting endpoint: they go through its callEndpoint).
import { pollingQueue, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

describe('e2e: reactions with zulip-js', () => {
  it("delivers Hamlet's reaction to a Verona message, and its removal, to Iago's queue", async () => {
    const hamlet = await client('hamlet@zulip.com');
    const iago = await client('iago@zulip.com');
    const { poll } = await pollingQueue(iago, { event_types: ['reaction'] });
    // Message 6 of the development data: Hamlet's, in Verona, which Iago is subscribed to.
    expect(await hamlet.reactions.add({ message_id: 6, emoji_name: 'octopus' })).toEqual({ result: 'success', msg: '' });
    const reaction = { user_id: 10, message_id: 6, emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
    expect(await poll()).toEqual([{ type: 'reaction', op: 'add', ...reaction }]);

    expect(await hamlet.reactions.add({ message_id: 6, emoji_name: 'octopus' })).toEqual({
      result: 'error',
      msg: 'Reaction already exists.',
      code: 'REACTION_ALREADY_EXISTS',
    });
    expect(await hamlet.reactions.remove({ message_id: 6, emoji_name: 'octopus' })).toEqual({ result: 'success', msg: '' });
    expect(await poll()).toEqual([{ type: 'reaction', op: 'remove', ...reaction }]);
  });
});

describe('e2e: topics with zulip-js', () => {
  it("lists Verona's topics newest first, and refuses a private channel of which the user is not a subscriber", async () => {
    const iago = await client('iago@zulip.com');
    expect(await iago.streams.topics.retrieve({ stream_id: 3 })).toEqual({
      result: 'success',
      msg: '',
      topics: [
        { name: 'general chat', max_id: 14 },
        { name: 'test', max_id: 7 },
      ],
    });
    const othello = await client('othello@zulip.com');
    expect(await othello.streams.topics.retrieve({ stream_id: 6 })).toEqual({
      result: 'error',
      msg: 'Invalid channel ID',
      code: 'BAD_REQUEST',
    });
  });
});

describe('e2e: topic muting with zulip-js', () => {
  it("delivers Hamlet's mute of a Verona topic, and the legacy unmute, to Hamlet's own queue", async () => {
    const hamlet = await client('hamlet@zulip.com');
    const registered = await hamlet.queues.register({ event_types: ['user_topic'] });
    expect(registered.result).toBe('success');
    const poll = async (): Promise<Record<string, unknown>[]> => {
      const body = await hamlet.events.retrieve({ queue_id: registered.queue_id, last_event_id: -1, dont_block: true });
      expect(body.result).toBe('success');
      return (body.events as Record<string, unknown>[])
        .filter((e) => e.type !== 'heartbeat')
        .map(({ id: _id, last_updated: _at, ...e }) => e);
    };
    expect(await hamlet.callEndpoint('/user_topics', 'POST', { stream_id: 3, topic: 'test', visibility_policy: 1 })).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await poll()).toEqual([{ type: 'user_topic', stream_id: 3, topic_name: 'test', visibility_policy: 1 }]);
    expect(
      await hamlet.callEndpoint('/users/me/subscriptions/muted_topics', 'PATCH', { stream: 'Verona', topic: 'test', op: 'remove' }),
    ).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await poll()).toEqual([
      { type: 'user_topic', stream_id: 3, topic_name: 'test', visibility_policy: 1 },
      { type: 'user_topic', stream_id: 3, topic_name: 'test', visibility_policy: 0 },
    ]);
  });
});
