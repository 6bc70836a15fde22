// POST /channels/create (upstream's create_channel, feature level 417) against the development
// data: Denmark (1) is public, core team (6) private, Old Verona (7) archived; Hamlet (10) is a
// member, Iago (11) an administrator, Othello (12) a member, Polonius (13) a guest; 'zulip'
// announces new channels in Verona (3); Notification Bot is user 1; Edgar (21) is another
// organization's.
import { handler as create } from '../../../functions/channels/create';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const REALM = 2;

const createChannel = (as: string, params: Record<string, unknown>) =>
  call(create, { method: 'POST', path: '/channels/create', as, params });

const channelNamed = async (name: string) =>
  (await channelsStore.listChannelsOfRealm(REALM, { consistent: true })).find((c) => c.name.toLowerCase() === name.toLowerCase());

/** The message events of a drained queue: [channel name, topic, raw content]. */
const messagesOf = (events: Record<string, any>[]) =>
  events.filter((e) => e.type === 'message').map((e) => [e.message.display_recipient, e.message.subject, e.message.content]);

describe('POST /channels/create', () => {
  it('creates a public channel, answers its id, and subscribes exactly the listed users', async () => {
    const result = expectSuccess(
      await createChannel('hamlet@zulip.com', { name: ' Elsinore ', subscribers: [10, 12], description: 'A castle' }),
    );
    const channel = (await channelNamed('Elsinore'))!;
    expect(result).toEqual({ result: 'success', msg: '', id: channel.id });
    expect(channel).toMatchObject({
      name: 'Elsinore',
      description: 'A castle',
      inviteOnly: false,
      historyPublicToSubscribers: true,
      creatorId: 10,
    });
    expect((await channelsStore.listSubscriberIdsOfChannel(channel.id)).sort()).toEqual([10, 12]);
  });

  it('sends stream create to who may see the channel, the subscription to each subscriber, and peer_add to the others', async () => {
    const [hamlet, othello, cordelia, polonius] = await Promise.all(
      ['hamlet@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com', 'polonius@zulip.com'].map((e) =>
        openQueue(e, { eventTypes: ['stream', 'subscription'] }),
      ),
    );
    const { id } = expectSuccess(await createChannel('hamlet@zulip.com', { name: 'Wittenberg', subscribers: [10, 12] }));
    const cordeliaEvents = await cordelia.drain();
    expect(cordeliaEvents.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'peer_add'],
    ]);
    expect(cordeliaEvents[0].streams.map((s: any) => [s.stream_id, s.name])).toEqual([[id, 'Wittenberg']]);
    expect(cordeliaEvents[1]).toMatchObject({ stream_ids: [id], user_ids: [10, 12] });
    for (const queue of [hamlet, othello]) {
      const events = await queue.drain();
      expect(events.map((e) => [e.type, e.op])).toEqual([
        ['stream', 'create'],
        ['subscription', 'add'],
      ]);
      expect(events[1].subscriptions).toMatchObject([{ stream_id: id, name: 'Wittenberg', subscribers: [10, 12] }]);
    }
    // A guest who is not subscribed does not see a public channel.
    expect(await polonius.drain()).toEqual([]);
  });

  it('creates a channel without subscribers, still announced to the organization', async () => {
    const cordelia = await openQueue('cordelia@zulip.com', { eventTypes: ['stream'] });
    const { id } = expectSuccess(await createChannel('iago@zulip.com', { name: 'Empty hall', subscribers: [] }));
    expect(await channelsStore.listSubscriberIdsOfChannel(id)).toEqual([]);
    expect((await cordelia.drain()).map((e) => [e.op, e.streams[0].stream_id])).toEqual([['create', id]]);
  });

  it('creates a private channel with protected history, seen only by its subscribers and administrators', async () => {
    const [iago, cordelia] = await Promise.all([openQueue('iago@zulip.com', { eventTypes: ['stream'] }), openQueue('cordelia@zulip.com')]);
    const { id } = expectSuccess(await createChannel('hamlet@zulip.com', { name: 'Secrets', subscribers: [10], invite_only: true }));
    expect(await channelNamed('Secrets')).toMatchObject({ id, inviteOnly: true, historyPublicToSubscribers: false });
    expect((await iago.drain()).map((e) => [e.type, e.op])).toEqual([['stream', 'create']]);
    expect(await cordelia.drain()).toEqual([]);
  });

  it('posts the channel events message and, with announce, the announcement in Verona', async () => {
    const cordelia = await openQueue('cordelia@zulip.com', { params: { apply_markdown: false } });
    const hamlet = await openQueue('hamlet@zulip.com', { params: { apply_markdown: false } });
    expectSuccess(
      await createChannel('hamlet@zulip.com', { name: 'Ghost walk', subscribers: [10], announce: true, description: 'At midnight' }),
    );
    expect(messagesOf(await cordelia.drain())).toEqual([
      ['Verona', 'new channels', expect.stringContaining('created a new channel #**Ghost walk**')],
    ]);
    expect(messagesOf(await hamlet.drain())).toContainEqual([
      'Ghost walk',
      'channel events',
      '**Public** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\nAt midnight\n````',
    ]);
  });

  it('answers 409 CHANNEL_ALREADY_EXISTS for a taken name, in any case, archived too, changing nothing', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    for (const name of ['Denmark', 'denmark', 'old verona', 'core team']) {
      const result = await createChannel('hamlet@zulip.com', { name, subscribers: [10] });
      expectError(result, `Channel '${name}' already exists`, 409, 'CHANNEL_ALREADY_EXISTS');
      expect(result.body.channel_name).toBe(name);
    }
    expect((await channelsStore.listSubscriberIdsOfChannel(6)).includes(10)).toBe(true);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses a guest, a bad name or description, and a subscriber who is not an active user of the organization, creating nothing', async () => {
    const queue = await openQueue('iago@zulip.com');
    expectError(await createChannel('polonius@zulip.com', { name: 'Ghosts', subscribers: [13] }), 'Insufficient permission');
    expectError(await createChannel('hamlet@zulip.com', { name: '   ', subscribers: [10] }), "Channel name can't be empty.");
    expectError(
      await createChannel('hamlet@zulip.com', { name: 'x'.repeat(61), subscribers: [10] }),
      'Channel name too long (limit: 60 characters).',
    );
    expectError(
      await createChannel('hamlet@zulip.com', { name: 'Long', subscribers: [10], description: 'd'.repeat(1025) }),
      'description is too long (limit: 1024 characters)',
    );
    const stranger = await createChannel('hamlet@zulip.com', { name: 'Strangers', subscribers: [10, 21] });
    expectError(stranger, "User not authorized to execute queries on behalf of '21'", 403, 'UNAUTHORIZED_PRINCIPAL');
    for (const name of ['Ghosts', 'Long', 'Strangers']) expect(await channelNamed(name)).toBeUndefined();
    expect(await queue.drain()).toEqual([]);
  });

  it('requires name and subscribers, and subscribers as a JSON list of user ids', async () => {
    expectError(await createChannel('hamlet@zulip.com', { subscribers: [10] }), "Missing 'name' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expectError(
      await createChannel('hamlet@zulip.com', { name: 'Nope' }),
      "Missing 'subscribers' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await createChannel('hamlet@zulip.com', { name: 'Nope', subscribers: ['hamlet@zulip.com'] }),
      'subscribers[0] is not an integer',
    );
    expect(await channelNamed('Nope')).toBeUndefined();
  });
});
