// PATCH /streams/{stream_id} (upstream's update_stream_backend), against the development data:
// Denmark (1) is public, its subscribers are 7, 9, 10, 11, 12, 14, 15; Verona (3) is public;
// core team (6) is private with protected history, subscribers Desdemona (9, owner), Hamlet (10)
// and Iago (11, administrator); Old Verona (7) is archived; Britain (10) is another
// organization's. Cordelia (8) is a member on Verona only; Polonius (13) is a guest on Verona.
import { handler as update } from '../../../functions/channels/update';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel, setSubscribed, whileUnsubscribed } from '../../helpers/channels';
import { openQueue } from '../../helpers/events';

const patch = (as: string, channelId: number, params: Record<string, unknown>) =>
  call(update, { method: 'PATCH', path: `/streams/${channelId}`, pathParameters: { stream_id: String(channelId) }, as, params });

const stored = async (channelId: number) => (await channelsStore.getChannel(2, channelId, { consistent: true }))!;

/** The channel events notices of a drained queue: [channel name, topic, raw content]. */
const noticesOf = (events: Record<string, any>[]) =>
  events.filter((e) => e.type === 'message').map((e) => [e.message.display_recipient, e.message.subject, e.message.content]);

const rawQueue = (email: string, capabilities: Record<string, boolean> = {}) =>
  openQueue(email, { params: { apply_markdown: false }, capabilities });

const streamEvents = (events: Record<string, any>[]) => events.filter((e) => e.type === 'stream' || e.type === 'subscription');

describe('PATCH /streams/{stream_id}: who may administer a channel', () => {
  it.each([
    ['a member who does not administer it', 'hamlet@zulip.com', 1, 'You do not have permission to administer this channel.'],
    ['a guest who cannot see it', 'polonius@zulip.com', 1, 'Invalid channel ID'],
    ['a member, a private channel he is not on', 'cordelia@zulip.com', 6, 'Invalid channel ID'],
    ["another organization's channel", 'iago@zulip.com', 10, 'Invalid channel ID'],
    ['a channel that does not exist', 'iago@zulip.com', 999, 'Invalid channel ID'],
  ])('refuses %s and changes nothing', async (_label, as, channelId, msg) => {
    const before = await channelsStore.getChannel(channelId === 10 ? 3 : 2, channelId, { consistent: true });
    expectError(await patch(as, channelId, { description: 'changed' }), msg);
    expect(await channelsStore.getChannel(channelId === 10 ? 3 : 2, channelId, { consistent: true })).toEqual(before);
  });

  it("lets a member of the channel's can_administer_channel_group change it, but not a guest in it", async () => {
    await changeChannel(2, 2, { groupSettings: { can_administer_channel_group: { direct_members: [8, 13], direct_subgroups: [] } } });
    expectSuccess(await patch('cordelia@zulip.com', 2, { description: 'Highlands' }));
    expect((await stored(2)).description).toBe('Highlands');
    // Polonius, a guest, cannot see Scotland at all; subscribed, he sees it but may not administer it.
    expectError(await patch('polonius@zulip.com', 2, { description: 'x' }), 'Invalid channel ID');
    await setSubscribed(2, 13, 2, true);
    expectError(await patch('polonius@zulip.com', 2, { description: 'x' }), 'You do not have permission to administer this channel.');
    await setSubscribed(2, 13, 2, false);
    expect((await stored(2)).description).toBe('Highlands');
  });
});

describe('PATCH /streams/{stream_id}: name and description', () => {
  it('renames a channel: the name lock moves, everyone who sees it is told, and Notification Bot says so', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { new_name: '  Jutland ' }));
    expect((await stored(1)).name).toBe('Jutland');
    expect((await channelsStore.getChannelsByNames(2, ['denmark', 'jutland'], { consistent: true })).map((c) => c.name)).toEqual([
      'Jutland',
    ]);
    const update = { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'name', value: 'Jutland' };
    expect(streamEvents(await cordelia.drain())).toEqual([update]);
    const hamletEvents = await hamlet.drain();
    expect(streamEvents(hamletEvents)).toEqual([update]);
    expect(noticesOf(hamletEvents)).toEqual([['Jutland', 'channel events', '@_**Iago|11** renamed channel **Denmark** to **Jutland**.']]);
    expectSuccess(await patch('iago@zulip.com', 1, { new_name: 'Denmark' }));
  });

  it('gives a name to one of two channels renamed to it at once; the other is told it exists', async () => {
    const results = await Promise.all([
      patch('iago@zulip.com', 4, { new_name: 'Elsinore' }),
      patch('iago@zulip.com', 5, { new_name: 'elsinore' }),
    ]);
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status !== 200)!;
    expect(lost.body.code).toBe('CHANNEL_ALREADY_EXISTS');
    const names = [(await stored(4)).name, (await stored(5)).name];
    expect(names.filter((n) => n.toLowerCase() === 'elsinore')).toHaveLength(1);
    const renamed = names[0].toLowerCase() === 'elsinore' ? 4 : 5;
    expectSuccess(await patch('iago@zulip.com', renamed, { new_name: renamed === 4 ? 'Venice' : 'Rome' }));
  });

  it('allows changing only the case of the name', async () => {
    expectSuccess(await patch('iago@zulip.com', 4, { new_name: 'VENICE' }));
    expect((await stored(4)).name).toBe('VENICE');
    expectSuccess(await patch('iago@zulip.com', 4, { new_name: 'Venice' }));
  });

  it.each([
    [{ new_name: 'Denmark' }, 'Channel already has that name.', 'BAD_REQUEST'],
    [{ new_name: 'verona' }, "Channel 'verona' already exists", 'CHANNEL_ALREADY_EXISTS'],
    [{ new_name: 'old verona' }, "Channel 'old verona' already exists", 'CHANNEL_ALREADY_EXISTS'],
    [{ new_name: '' }, "Channel name can't be empty.", 'BAD_REQUEST'],
    [{ new_name: 'x'.repeat(61) }, 'Channel name too long (limit: 60 characters).', 'BAD_REQUEST'],
    [{ description: 'd'.repeat(1025) }, 'description is too long (limit: 1024 characters)', 'BAD_REQUEST'],
    [{ description: 'fine', new_name: 'Verona' }, "Channel 'Verona' already exists", 'CHANNEL_ALREADY_EXISTS'],
  ])('refuses %j and changes nothing', async (params, msg, code) => {
    const before = await stored(1);
    expectError(await patch('iago@zulip.com', 1, params), msg, 400, code);
    expect(await stored(1)).toEqual(before);
  });

  it('changes the description (newlines become spaces), with its rendering in the event and both versions in the notice', async () => {
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { description: 'The **Danish**\nkingdom' }));
    expect((await stored(1)).description).toBe('The **Danish** kingdom');
    const events = await hamlet.drain();
    expect(streamEvents(events)).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: 1,
        name: 'Denmark',
        property: 'description',
        value: 'The **Danish** kingdom',
        rendered_description: '<p>The <strong>Danish</strong> kingdom</p>',
      },
    ]);
    expect(noticesOf(events)).toEqual([
      [
        'Denmark',
        'channel events',
        '@_**Iago|11** changed the description for this channel.\n\n* **Old description:**\n```` quote\nA Scandinavian country\n````\n' +
          '* **New description:**\n```` quote\nThe **Danish** kingdom\n````',
      ],
    ]);
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it.each([
    [{ is_private: true, is_web_public: true }, 'Invalid parameters'],
    [{ history_public_to_subscribers: false }, 'Invalid parameters'],
    [{ is_web_public: true, history_public_to_subscribers: false }, 'Invalid parameters'],
  ])('refuses the combination %j', async (params, msg) => {
    const before = await stored(2);
    expectError(await patch('iago@zulip.com', 2, params), msg);
    expect(await stored(2)).toEqual(before);
  });

  it('refuses making a channel web-public to a channel administrator who may not create web-public channels', async () => {
    await changeChannel(2, 4, { groupSettings: { can_administer_channel_group: { direct_members: [14], direct_subgroups: [] } } });
    expectError(await patch('prospero@zulip.com', 4, { is_web_public: true }), 'Insufficient permission');
    expect((await stored(4)).isWebPublic).toBe(false);
  });

  it('requires content access to change whether a channel is private', async () => {
    await whileUnsubscribed(2, 11, 6, async () => {
      expectError(await patch('iago@zulip.com', 6, { is_private: false }), 'Channel content access is required.');
      expect((await stored(6)).inviteOnly).toBe(true);
    });
  });

  it('makes a public channel private (history protected by default) and tells who still sees it', async () => {
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { is_private: true }));
    expect(await stored(1)).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false });
    const events = await hamlet.drain();
    expect(streamEvents(events)).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: 1,
        name: 'Denmark',
        property: 'invite_only',
        value: true,
        history_public_to_subscribers: false,
        is_web_public: false,
      },
    ]);
    expect(noticesOf(events)).toEqual([
      [
        'Denmark',
        'channel events',
        '@_**Iago|11** changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.',
      ],
    ]);
  });

  it('makes the private channel public again: who could not see it gets the channel and its subscribers', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { is_private: false }));
    expect(await stored(1)).toMatchObject({ inviteOnly: false, historyPublicToSubscribers: true });
    const cordeliaEvents = streamEvents(await cordelia.drain());
    expect(cordeliaEvents.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'peer_add'],
    ]);
    expect(cordeliaEvents[0].streams[0]).toMatchObject({ stream_id: 1, invite_only: false, history_public_to_subscribers: true });
    expect(cordeliaEvents[1]).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [1], user_ids: [7, 9, 10, 11, 12, 14, 15] });
    expect(streamEvents(await hamlet.drain())).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: 1,
        name: 'Denmark',
        property: 'invite_only',
        value: false,
        history_public_to_subscribers: true,
        is_web_public: false,
      },
    ]);
  });
});

describe('PATCH /streams/{stream_id}: permission groups', () => {
  it('changes who may post, with the posting permissions notice', async () => {
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { can_send_message_group: { new: 11, old: 6 } }));
    expect((await stored(1)).groupSettings.can_send_message_group).toBe(11);
    const events = await hamlet.drain();
    expect(streamEvents(events)).toEqual([
      { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'can_send_message_group', value: 11 },
    ]);
    expect(noticesOf(events)).toEqual([
      [
        'Denmark',
        'channel events',
        '@_**Iago|11** changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n' +
          '* **Old**: @_*role:everyone*\n* **New**: @_*moderation-team*',
      ],
    ]);
  });

  it('sends stream_post_policy and is_announcement_only when a role group restricts posting', async () => {
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 1, { can_send_message_group: { new: 2 } }));
    const events = streamEvents(await hamlet.drain());
    expect(events.map((e) => [e.property, e.value])).toEqual([
      ['can_send_message_group', 2],
      ['stream_post_policy', 2],
      ['is_announcement_only', true],
    ]);
  });

  it('gives a new channel administrator of a private channel the channel, and takes it from one removed', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(
      await patch('iago@zulip.com', 6, { can_administer_channel_group: { new: { direct_members: [8], direct_subgroups: [] } } }),
    );
    expect((await stored(6)).groupSettings.can_administer_channel_group).toEqual({ direct_members: [8], direct_subgroups: [] });
    const gained = streamEvents(await cordelia.drain());
    expect(gained.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'peer_add'],
    ]);
    expect(gained[1].user_ids).toEqual([9, 10, 11]);
    expect(streamEvents(await hamlet.drain())).toEqual([
      {
        type: 'stream',
        op: 'update',
        stream_id: 6,
        name: 'core team',
        property: 'can_administer_channel_group',
        value: { direct_members: [8], direct_subgroups: [] },
      },
    ]);

    expectSuccess(await patch('iago@zulip.com', 6, { can_administer_channel_group: { new: 8 } }));
    expect(streamEvents(await cordelia.drain())).toEqual([{ type: 'stream', op: 'delete', streams: [{ stream_id: 6 }], stream_ids: [6] }]);
  });

  it.each([
    [{ can_send_message_group: { new: 12, old: 8 } }, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'],
    [
      { can_administer_channel_group: { new: 6 } },
      "'can_administer_channel_group' setting cannot be set to 'role:everyone' group.",
      'BAD_REQUEST',
    ],
    [{ can_send_message_group: { new: 15 } }, 'User group is deactivated.', 'BAD_REQUEST'],
    [{ can_send_message_group: { new: 29 } }, 'Invalid user group', 'BAD_REQUEST'],
    [{ can_send_message_group: { new: { direct_members: [999], direct_subgroups: [] } } }, 'Invalid user ID: 999', 'BAD_REQUEST'],
    [{ description: 'not this either', can_send_message_group: { new: 29 } }, 'Invalid user group', 'BAD_REQUEST'],
  ])('refuses %j and changes nothing', async (params, msg, code) => {
    const before = await stored(2);
    expectError(await patch('iago@zulip.com', 2, params), msg, 400, code);
    expect(await stored(2)).toEqual(before);
  });

  it('requires content access to change can_subscribe_group of a private channel', async () => {
    await whileUnsubscribed(2, 11, 6, async () => {
      expectError(await patch('iago@zulip.com', 6, { can_subscribe_group: { new: 9 } }), 'Channel content access is required.');
      expect((await stored(6)).groupSettings.can_subscribe_group).toEqual({ direct_members: [], direct_subgroups: [] });
    });
  });
});

describe('PATCH /streams/{stream_id}: message retention', () => {
  it('is for organization owners', async () => {
    expectError(
      await patch('iago@zulip.com', 2, { message_retention_days: 30 }),
      'Must be an organization owner',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await stored(2)).messageRetentionDays).toBeNull();
  });

  it.each([['forever'], [0], [-3]])('refuses the value %j', async (value) => {
    expectError(
      await patch('desdemona@zulip.com', 2, { message_retention_days: JSON.stringify(value) }),
      `Bad value for 'message_retention_days': ${value}`,
    );
    expect((await stored(2)).messageRetentionDays).toBeNull();
  });

  it('sets a retention period, with its event and notice', async () => {
    const iago = await rawQueue('iago@zulip.com');
    expectSuccess(await patch('desdemona@zulip.com', 2, { message_retention_days: 30 }));
    expect((await stored(2)).messageRetentionDays).toBe(30);
    const events = await iago.drain();
    expect(streamEvents(events)).toEqual([
      { type: 'stream', op: 'update', stream_id: 2, name: 'Scotland', property: 'message_retention_days', value: 30 },
    ]);
    expect(noticesOf(events)[0][2]).toBe(
      '@_**Desdemona|9** has changed the [message retention period](/help/message-retention-policy) for this channel:\n' +
        '* **Old retention period**: Forever\n* **New retention period**: 30 days\n\n' +
        'Messages in this channel will now be automatically deleted 30 days after they are sent.',
    );
    expectSuccess(await patch('desdemona@zulip.com', 2, { message_retention_days: JSON.stringify('realm_default') }));
    expect((await stored(2)).messageRetentionDays).toBeNull();
  });
});

describe('PATCH /streams/{stream_id} is_archived=false: unarchiving', () => {
  it('refuses a channel that is not archived', async () => {
    expectError(await patch('iago@zulip.com', 2, { is_archived: false }), 'Channel is not currently deactivated');
    expect((await stored(2)).isArchived).toBe(false);
  });

  it('unarchives: archived_channels clients get is_archived, others the channel again; Notification Bot says so', async () => {
    const modern = await rawQueue('iago@zulip.com', { archived_channels: true });
    const legacy = await rawQueue('cordelia@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 7, { is_archived: false }));
    expect((await stored(7)).isArchived).toBe(false);
    const modernEvents = await modern.drain();
    expect(streamEvents(modernEvents)).toEqual([
      { type: 'stream', op: 'update', stream_id: 7, name: 'Old Verona', property: 'is_archived', value: false },
    ]);
    expect(noticesOf(modernEvents)).toEqual([['Old Verona', 'channel events', 'Channel Old Verona un-archived.']]);
    const legacyEvents = streamEvents(await legacy.drain());
    expect(legacyEvents.map((e) => [e.type, e.op, e.for_unarchiving])).toEqual([['stream', 'create', undefined]]);
    expect(legacyEvents[0].streams[0]).toMatchObject({ stream_id: 7, is_archived: false });
  });
});
