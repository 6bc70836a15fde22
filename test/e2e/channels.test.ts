// Creating a channel and subscribing another user, over HTTP through serverless-offline with the
// zulip-js client: King Hamlet (10) creates a public channel with Othello (12) as the other
// subscriber and announces it; Othello's queue learns of the channel, of his subscription and of
// Notification Bot's notices, then receives Hamlet's message and finds it in the channel's
// narrow. Cordelia (8), a member on Verona, and Polonius (13), a guest on Verona, see what
// upstream sends them.
import { pollingQueue, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

/** A queue for channel, subscription and message events (raw Markdown content); returns its poll. */
const eventQueue = async (c: Awaited<ReturnType<typeof client>>) =>
  // zulip-js sends a POST's values as form fields: booleans go as the JSON text.
  (await pollingQueue<Record<string, any>>(c, { event_types: ['stream', 'subscription', 'message'], apply_markdown: 'false' })).poll;

const NOTIFICATION_BOT = { sender_id: 1, sender_email: 'notification-bot@zulip.com', sender_full_name: 'Notification Bot' };

describe('e2e: channels and subscriptions with zulip-js', () => {
  it("creates a channel with another subscriber, who receives the subscription, the notices and the creator's message", async () => {
    const hamlet = await client('hamlet@zulip.com');
    const othello = await client('othello@zulip.com');
    const cordelia = await client('cordelia@zulip.com');
    const polonius = await client('polonius@zulip.com');
    const [pollOthello, pollCordelia, pollPolonius, pollHamlet] = await Promise.all([othello, cordelia, polonius, hamlet].map(eventQueue));

    // Create "Elsinore" with Hamlet and Othello subscribed, announced in Verona.
    expect(
      await hamlet.users.me.subscriptions.add({
        subscriptions: [{ name: 'Elsinore', description: 'A castle in Denmark' }],
        principals: [10, 12],
        announce: 'true',
      }),
    ).toEqual({
      result: 'success',
      msg: '',
      subscribed: { '10': ['Elsinore'], '12': ['Elsinore'] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
    });
    const { stream_id: channelId } = await othello.callEndpoint('/get_stream_id', 'GET', { stream: 'elsinore' });
    expect(channelId).toEqual(expect.any(Number));

    const announcement = {
      ...NOTIFICATION_BOT,
      type: 'stream',
      display_recipient: 'Verona',
      stream_id: 3,
      subject: 'new channels',
      content: '@_**King Hamlet|10** created a new channel #**Elsinore**.',
    };
    const channelEvents = {
      ...NOTIFICATION_BOT,
      type: 'stream',
      display_recipient: 'Elsinore',
      stream_id: channelId,
      subject: 'channel events',
      content: '**Public** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\nA castle in Denmark\n````',
    };
    const othelloEvents = await pollOthello();
    expect(othelloEvents.map((e) => [e.type, e.op ?? null])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
      ['message', null],
      ['message', null],
    ]);
    expect(othelloEvents[0].streams).toEqual([
      expect.objectContaining({
        stream_id: channelId,
        name: 'Elsinore',
        description: 'A castle in Denmark',
        invite_only: false,
        creator_id: 10,
      }),
    ]);
    expect(othelloEvents[1].subscriptions).toEqual([
      expect.objectContaining({ stream_id: channelId, name: 'Elsinore', subscribers: [10, 12], subscriber_count: 2 }),
    ]);
    expect(othelloEvents[2]).toMatchObject({ flags: [], message: announcement });
    expect(othelloEvents[3]).toMatchObject({ flags: [], message: channelEvents });

    // Cordelia may see the public channel and its subscribers, and reads Verona; Polonius, a guest,
    // sees neither the channel nor its subscribers, only the announcement in Verona.
    const cordeliaEvents = await pollCordelia();
    expect(cordeliaEvents.map((e) => [e.type, e.op ?? null])).toEqual([
      ['stream', 'create'],
      ['subscription', 'peer_add'],
      ['message', null],
    ]);
    expect(cordeliaEvents[1]).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: [10, 12] });
    expect(cordeliaEvents[2]).toMatchObject({ flags: [], message: announcement });
    const poloniusEvents = await pollPolonius();
    expect(poloniusEvents).toHaveLength(1);
    expect(poloniusEvents[0]).toMatchObject({ type: 'message', flags: [], message: announcement });
    // The creator caused the notices: he has them read.
    const hamletMessages = (await pollHamlet()).filter((e) => e.type === 'message');
    expect(hamletMessages.map((e) => [e.message.subject, e.flags])).toEqual([
      ['new channels', ['read']],
      ['channel events', ['read']],
    ]);

    // Hamlet's message reaches Othello's queue, and Othello finds it in the channel's narrow.
    const sent = await hamlet.messages.send({ type: 'stream', to: 'Elsinore', topic: 'castle', content: 'Something is rotten.' });
    // A topic Hamlet starts is one he follows (upstream's default automatically_follow_topics_policy).
    expect(sent).toEqual({ result: 'success', msg: '', id: expect.any(Number), automatic_new_visibility_policy: 3 });
    const [delivered, ...more] = await pollOthello();
    expect(more).toEqual([]);
    expect(delivered).toMatchObject({
      type: 'message',
      flags: [],
      message: { id: sent.id, sender_id: 10, stream_id: channelId, subject: 'castle', content: 'Something is rotten.' },
    });
    const fetched = await othello.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Elsinore' }],
      apply_markdown: false,
    });
    expect(fetched.result).toBe('success');
    expect(fetched.messages.map((m: any) => [m.sender_id, m.subject, m.content, m.flags])).toEqual([
      [1, 'channel events', channelEvents.content, []],
      [10, 'castle', 'Something is rotten.', []],
    ]);
    expect(fetched.messages[1].id).toBe(sent.id);
    expect(fetched.messages[0]).toMatchObject({ sender_email: 'notification-bot@zulip.com', sender_full_name: 'Notification Bot' });
  });

  it('creates a channel with POST /channels/create over plain HTTP (zulip-js has no call for it), seen by a subscriber through zulip-js', async () => {
    const othello = await client('othello@zulip.com');
    const pollOthello = await eventQueue(othello);
    const { api_key: apiKey } = (await service.request('POST', '/dev_fetch_api_key', { params: { username: 'hamlet@zulip.com' } })).body;
    const auth = { email: 'hamlet@zulip.com', apiKey };
    const params = { name: 'Wittenberg', subscribers: JSON.stringify([10, 12]), description: 'A university' };
    const created = await service.request('POST', '/channels/create', { params, auth });
    expect(created).toMatchObject({ status: 200, body: { result: 'success', msg: '', id: expect.any(Number) } });
    const { stream_id: channelId } = await othello.callEndpoint('/get_stream_id', 'GET', { stream: 'wittenberg' });
    expect(channelId).toBe(created.body.id);
    const events = await pollOthello();
    expect(events.filter((e) => e.type !== 'message').map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
    ]);
    expect(events[1]!.subscriptions).toMatchObject([{ stream_id: channelId, name: 'Wittenberg', subscribers: [10, 12] }]);

    const again = await service.request('POST', '/channels/create', { params, auth });
    expect(again).toMatchObject({
      status: 409,
      body: { result: 'error', msg: "Channel 'Wittenberg' already exists", code: 'CHANNEL_ALREADY_EXISTS' },
    });
  });
});
