// POST /users/me/subscriptions against the development data: Denmark (1) has subscribers 7, 9,
// 10, 11, 12, 14, 15; core team (6) is private (9, 10, 11); Venice (4) was left by Iago (11);
// Cordelia (8) is subscribed to Verona (3) only; Polonius (13) is a guest on Verona; Desdemona (9)
// is an owner; Britain (10) and Edgar (21) are another organization's.
import { handler as register } from '../../../functions/events/register';
import { handler as getChannel } from '../../../functions/channels/get';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue, type TestQueue } from '../../helpers/events';

const sub = (as: string, params: Record<string, unknown>) =>
  call(subscribe, { method: 'POST', path: '/users/me/subscriptions', as, params });

const openQueues = async (...emails: string[]): Promise<Record<string, TestQueue>> =>
  Object.fromEntries(await Promise.all(emails.map(async (e) => [e.split('@')[0], await openQueue(e)])));
const drainAll = async (queues: Record<string, TestQueue>): Promise<Record<string, any[]>> =>
  Object.fromEntries(await Promise.all(Object.entries(queues).map(async ([name, q]) => [name, await q.drain()])));

const subscriberCount = async (id: number): Promise<number> =>
  expectSuccess(
    await call(getChannel, { method: 'GET', path: `/streams/${id}`, as: 'iago@zulip.com', pathParameters: { stream_id: String(id) } }),
  ).stream.subscriber_count;

const snapshot = async (as: string) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as,
      params: { fetch_event_types: ['subscription', 'stream'], client_capabilities: { notification_settings_null: true } },
    }),
  );

describe('POST /users/me/subscriptions to existing channels', () => {
  it('subscribes the caller, sends them the subscription and tells who may see subscribers, not a guest outside', async () => {
    const queues = await openQueues('cordelia@zulip.com', 'hamlet@zulip.com', 'polonius@zulip.com');
    const before = await subscriberCount(1);
    expect(expectSuccess(await sub('cordelia@zulip.com', { subscriptions: [{ name: 'Denmark' }] }))).toEqual({
      result: 'success',
      msg: '',
      subscribed: { '8': ['Denmark'] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
    });
    const events = await drainAll(queues);
    expect(events.cordelia).toHaveLength(1);
    expect(events.cordelia[0]).toMatchObject({
      type: 'subscription',
      op: 'add',
      subscriptions: [{ stream_id: 1, name: 'Denmark', subscribers: [7, 8, 9, 10, 11, 12, 14, 15], subscriber_count: before + 1 }],
    });
    expect(events.hamlet).toEqual(
      [{ type: 'subscription', op: 'peer_add', stream_ids: [1], user_ids: [8], id: expect.any(Number) }].map(({ id: _id, ...e }) => e),
    );
    expect(events.polonius).toEqual([]);
    expect(await subscriberCount(1)).toBe(before + 1);
    expect((await channelsStore.listSubscriberIdsOfChannel(1)).includes(8)).toBe(true);
  });

  it('keeps register in step: the new subscription moves from never_subscribed to subscriptions as the event says', async () => {
    const before = await snapshot('othello@zulip.com');
    const queue = await openQueue('othello@zulip.com');
    expectSuccess(await sub('othello@zulip.com', { subscriptions: [{ name: 'Venice' }] }));
    const [event] = await queue.drain();
    const after = await snapshot('othello@zulip.com');
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    expect(after.subscriptions).toEqual(
      [
        ...before.subscriptions.map((s: any) => (s.stream_id === 4 ? s : s)),
        ...event.subscriptions.map(({ subscribers: _s, ...rest }: any) => rest),
      ].sort(byName),
    );
    expect(after.never_subscribed).toEqual(before.never_subscribed.filter((s: any) => s.stream_id !== 4).map((s: any) => s));
    expect(after.streams.find((s: any) => s.stream_id === 4).subscriber_count).toBe(
      before.streams.find((s: any) => s.stream_id === 4).subscriber_count + 1,
    );
  });

  it('answers already_subscribed and sends nothing for a channel the user is on', async () => {
    const queues = await openQueues('hamlet@zulip.com', 'iago@zulip.com');
    expect(expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: ' Verona ' }] }))).toMatchObject({
      subscribed: {},
      already_subscribed: { '10': ['Verona'] },
    });
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [] });
  });

  it('brings back a channel one left with its old settings', async () => {
    const queue = await openQueue('iago@zulip.com');
    expectSuccess(await sub('iago@zulip.com', { subscriptions: [{ name: 'Venice' }] }));
    const [event] = await queue.drain();
    expect(event.subscriptions[0]).toMatchObject({ stream_id: 4, color: '#c2c2c2' });
    expect((await channelsStore.getSubscription(11, 4))?.active).toBe(true);
  });

  it('refuses a private channel the caller may not join, changing nothing', async () => {
    const queues = await openQueues('cordelia@zulip.com', 'hamlet@zulip.com');
    const before = await subscriberCount(6);
    expectError(
      await sub('cordelia@zulip.com', { subscriptions: [{ name: 'Verona' }, { name: 'core team' }] }),
      'Unable to access channel (core team).',
    );
    expect(await drainAll(queues)).toEqual({ cordelia: [], hamlet: [] });
    expect(await subscriberCount(6)).toBe(before);
    expect(await channelsStore.getSubscription(8, 6)).toBeUndefined();
  });

  it('lists the private channel as unauthorized when authorization_errors_fatal is false', async () => {
    expect(
      expectSuccess(
        await sub('prospero@zulip.com', {
          subscriptions: [{ name: 'core team' }, { name: 'Scotland' }],
          authorization_errors_fatal: false,
        }),
      ),
    ).toMatchObject({ subscribed: {}, already_subscribed: { '14': ['Scotland'] }, unauthorized: ['core team'] });
  });

  it('refuses a public channel to a guest', async () => {
    expectError(await sub('polonius@zulip.com', { subscriptions: [{ name: 'Scotland' }] }), 'Unable to access channel (Scotland).');
  });

  it("treats another organization's channel name as a new channel, never joining it", async () => {
    const body = expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Britain' }] }));
    expect(body.subscribed).toEqual({ '10': ['Britain'] });
    expect((await channelsStore.listSubscriberIdsOfChannel(10)).includes(10)).toBe(false);
  });
});

describe('POST /users/me/subscriptions with principals', () => {
  it('subscribes another user, who receives the subscription and a notice; the caller gets the peer_add', async () => {
    const queues = await openQueues('hamlet@zulip.com', 'shiva@zulip.com');
    expect(expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Venice' }], principals: [15] }))).toMatchObject({
      subscribed: { '15': ['Venice'] },
    });
    const events = await drainAll(queues);
    expect(events.shiva).toEqual([
      expect.objectContaining({ type: 'subscription', op: 'add' }),
      expect.objectContaining({ type: 'message', message: expect.objectContaining({ sender_id: 1, type: 'private' }) }),
    ]);
    expect(events.hamlet).toEqual([{ type: 'subscription', op: 'peer_add', stream_ids: [4], user_ids: [15] }]);
  });

  it('accepts emails as principals', async () => {
    expect(
      expectSuccess(await sub('iago@zulip.com', { subscriptions: [{ name: 'Rome' }], principals: ['aaron@zulip.com'] })),
    ).toMatchObject({
      subscribed: { '6': ['Rome'] },
    });
  });

  it.each([
    ['an unknown id', 9999],
    ["another organization's user", 21],
    ['a deactivated user', 18],
  ])('refuses %s with a 403, changing nothing', async (_what, principal) => {
    const before = await subscriberCount(2);
    expectError(
      await sub('iago@zulip.com', { subscriptions: [{ name: 'Scotland' }], principals: [principal] }),
      `User not authorized to execute queries on behalf of '${principal}'`,
      403,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await subscriberCount(2)).toBe(before);
  });

  it('refuses a guest subscribing someone else', async () => {
    expectError(await sub('polonius@zulip.com', { subscriptions: [{ name: 'Verona' }], principals: [8] }), 'Insufficient permission');
  });
});

describe('POST /users/me/subscriptions creating channels', () => {
  it('creates a public channel with upstream defaults, tells every non-guest of it and of its subscriber, and subscribes the creator', async () => {
    const queues = await openQueues('hamlet@zulip.com', 'cordelia@zulip.com', 'polonius@zulip.com');
    expect(expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Elsinore', description: 'A castle' }] }))).toMatchObject({
      subscribed: { '10': ['Elsinore'] },
    });
    const events = await drainAll(queues);
    const create = events.cordelia[0];
    expect(create).toMatchObject({
      type: 'stream',
      op: 'create',
      streams: [
        {
          name: 'Elsinore',
          description: 'A castle',
          invite_only: false,
          history_public_to_subscribers: true,
          creator_id: 10,
          subscriber_count: 0,
        },
      ],
    });
    expect(events.cordelia[1]).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [create.streams[0].stream_id], user_ids: [10] });
    expect(create.streams[0].can_administer_channel_group).toEqual({ direct_members: [10], direct_subgroups: [] });
    expect(events.hamlet.map((e: any) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
      ['message', undefined],
    ]);
    expect(events.hamlet[1].subscriptions[0]).toMatchObject({ name: 'Elsinore', subscribers: [10], subscriber_count: 1 });
    expect(events.polonius).toEqual([]);
  });

  it('creates a private channel seen only by its subscribers and administrators', async () => {
    const queues = await openQueues('cordelia@zulip.com', 'iago@zulip.com', 'othello@zulip.com');
    expectSuccess(await sub('othello@zulip.com', { subscriptions: [{ name: 'Cyprus' }], invite_only: true }));
    const events = await drainAll(queues);
    expect(events.cordelia).toEqual([]);
    expect(events.iago.map((e: any) => e.op)).toEqual(['create', 'peer_add']);
    expect(events.iago[0].streams[0]).toMatchObject({ name: 'Cyprus', invite_only: true, history_public_to_subscribers: false });
    expect(events.othello.map((e: any) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
      ['message', undefined],
    ]);
  });

  it.each([
    ['an empty name', '   ', "Channel name can't be empty."],
    ['a name too long', 'x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['a control character', 'bad\u0001name', 'Invalid character in channel name, at position 4.'],
  ])('refuses %s, creating nothing', async (_what, name, msg) => {
    expectError(await sub('hamlet@zulip.com', { subscriptions: [{ name }] }), msg);
  });

  it('refuses a guest creating a channel', async () => {
    expectError(await sub('polonius@zulip.com', { subscriptions: [{ name: 'Ghosts' }] }), 'Insufficient permission');
    expect((await channelsStore.listChannelsOfRealm(2)).some((c) => c.name === 'Ghosts')).toBe(false);
  });

  it('requires the subscriptions argument', async () => {
    expectError(await sub('hamlet@zulip.com', {}), "Missing 'subscriptions' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });
});
