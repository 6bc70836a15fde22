// POST /channels/create's settings of the new channel beyond its name, description and privacy
// (upstream's create_channel with check_channel_creation_permissions), each with upstream's checks
// and messages; the same options go through POST /users/me/subscriptions (one test there too).
// Development data: Desdemona (9) owner, Iago (11) administrator (and the only member of
// web-public-creators, group 12, the organization's can_create_web_public_channel_group), Hamlet
// (10) member; system groups role:administrators 2, role:everyone 6, role:nobody 8; group 15 is
// deactivated; folder 1 (Italy) holds two channels; King (realm 3) is in an organization without
// spectator access.
import { handler as create } from '../../../functions/channels/create';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import * as foldersStore from '../../../lib/store/channel-folders';
import * as channelsStore from '../../../lib/store/channels';
import * as defaultChannelsStore from '../../../lib/store/default-channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const createChannel = (as: string, params: Record<string, unknown>) =>
  call(create, { method: 'POST', path: '/channels/create', as, params });
const channelNamed = async (name: string, realmId = 2) =>
  (await channelsStore.listChannelsOfRealm(realmId, { consistent: true })).find((c) => c.name === name);
const channelCount = async () => (await channelsStore.listChannelsOfRealm(2, { consistent: true })).length;

describe('POST /channels/create: settings of the new channel', () => {
  it('accepts every upstream parameter: none lands in ignored_parameters_unsupported', async () => {
    const result = expectSuccess(
      await createChannel('desdemona@zulip.com', {
        name: 'Everything',
        subscribers: [9],
        is_web_public: false,
        is_default_stream: false,
        message_retention_days: JSON.stringify('realm_default'),
        topics_policy: JSON.stringify('inherit'),
        send_new_subscription_messages: true,
        can_send_message_group: 6,
      }),
    );
    expect(result).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('creates a web-public channel for a member of can_create_web_public_channel_group', async () => {
    expectSuccess(await createChannel('iago@zulip.com', { name: 'Open house', subscribers: [11], is_web_public: true }));
    expect(await channelNamed('Open house')).toMatchObject({ isWebPublic: true, inviteOnly: false, historyPublicToSubscribers: true });
  });

  it('makes a new channel a default channel, sending default_streams', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['default_streams'] });
    const { id } = expectSuccess(await createChannel('iago@zulip.com', { name: 'Lobby', subscribers: [], is_default_stream: true }));
    expect(await defaultChannelsStore.listDefaultChannelIds(2, { consistent: true })).toContain(id);
    const events = await queue.drain();
    expect(events).toHaveLength(1);
    expect(events[0].default_streams).toContain(id);
  });

  it('sets a retention period, for an owner, and a topics policy', async () => {
    expectSuccess(
      await createChannel('desdemona@zulip.com', {
        name: 'Ephemeral',
        subscribers: [9],
        message_retention_days: 30,
        topics_policy: JSON.stringify('empty_topic_only'),
      }),
    );
    expect(await channelNamed('Ephemeral')).toMatchObject({ messageRetentionDays: 30, topicsPolicy: 'empty_topic_only' });
    expectSuccess(
      await createChannel('desdemona@zulip.com', { name: 'Forever', subscribers: [], message_retention_days: JSON.stringify('unlimited') }),
    );
    expect(await channelNamed('Forever')).toMatchObject({ messageRetentionDays: -1 });
  });

  it('puts the channel in a folder, which then counts it (and cannot be archived)', async () => {
    const before = (await foldersStore.getFolder(2, 1))!.channelCount;
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['stream'] });
    expectSuccess(await createChannel('hamlet@zulip.com', { name: 'Padua', subscribers: [10], folder_id: 1 }));
    expect(await channelNamed('Padua')).toMatchObject({ folderId: 1 });
    expect((await foldersStore.getFolder(2, 1))!.channelCount).toBe(before + 1);
    const [event] = await queue.drain();
    expect(event).toMatchObject({ type: 'stream', op: 'create', streams: [{ name: 'Padua', folder_id: 1 }] });
  });

  it('sets permission groups, a group id or an anonymous group, and the rest at their defaults', async () => {
    expectSuccess(
      await createChannel('hamlet@zulip.com', {
        name: 'Announcements',
        subscribers: [10],
        can_send_message_group: 2,
        can_remove_subscribers_group: { direct_members: [10], direct_subgroups: [2] },
      }),
    );
    const channel = (await channelNamed('Announcements'))!;
    expect(channel.groupSettings).toMatchObject({
      can_send_message_group: 2,
      can_remove_subscribers_group: { direct_members: [10], direct_subgroups: [2] },
      can_administer_channel_group: { direct_members: [10], direct_subgroups: [] },
      can_add_subscribers_group: 8,
    });
  });

  it.each([
    ['a member, web-public', 'hamlet@zulip.com', { is_web_public: true }, 'Insufficient permission'],
    ['a member, a default channel', 'hamlet@zulip.com', { is_default_stream: true }, 'Insufficient permission'],
    ['a private default channel', 'iago@zulip.com', { is_default_stream: true, invite_only: true }, 'A default channel cannot be private.'],
    [
      'an administrator, a retention period',
      'iago@zulip.com',
      { message_retention_days: 30 },
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    ['a retention of -5 days', 'desdemona@zulip.com', { message_retention_days: -5 }, "Bad value for 'message_retention_days': -5"],
    [
      'a retention of "forever"',
      'desdemona@zulip.com',
      { message_retention_days: JSON.stringify('forever') },
      "Bad value for 'message_retention_days': forever",
    ],
    ['an unknown topics policy', 'iago@zulip.com', { topics_policy: JSON.stringify('sometimes') }, 'Invalid topics_policy'],
    ['a member, a topics policy', 'hamlet@zulip.com', { topics_policy: JSON.stringify('allow_empty_topic') }, 'Insufficient permission'],
    ['a folder that does not exist', 'hamlet@zulip.com', { folder_id: 999 }, 'Invalid channel folder ID'],
    ['a group that does not exist', 'hamlet@zulip.com', { can_send_message_group: 999 }, 'Invalid user group'],
    ['a deactivated group', 'hamlet@zulip.com', { can_send_message_group: 15 }, 'User group is deactivated.'],
    [
      'role:everyone where it is not allowed',
      'hamlet@zulip.com',
      { can_add_subscribers_group: 6 },
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    ],
  ])('refuses %s: %s, creating nothing', async (_what, as, params, message, code = 'BAD_REQUEST') => {
    const before = await channelCount();
    expectError(await createChannel(as, { name: 'Refused', subscribers: [], ...params }), message, 400, code);
    expect(await channelNamed('Refused')).toBeUndefined();
    expect(await channelCount()).toBe(before);
  });

  it('refuses a web-public channel where the organization allows no spectators', async () => {
    expectError(
      await createChannel('king@lear.org', { name: 'Refused', subscribers: [], is_web_public: true }),
      'Web-public channels are not enabled.',
    );
    expect(await channelNamed('Refused', 3)).toBeUndefined();
  });

  it("refuses another organization's folder as one that does not exist", async () => {
    expectError(await createChannel('king@lear.org', { name: 'Refused', subscribers: [], folder_id: 1 }), 'Invalid channel folder ID');
  });
});

describe('POST /users/me/subscriptions: settings of new channels', () => {
  it('creates channels in a folder with the given settings, counting both in the folder', async () => {
    const before = (await foldersStore.getFolder(2, 1))!.channelCount;
    expectSuccess(
      await call(subscribe, {
        method: 'POST',
        path: '/users/me/subscriptions',
        as: 'iago@zulip.com',
        params: {
          subscriptions: [{ name: 'Mantua' }, { name: 'Milan' }],
          folder_id: 1,
          topics_policy: JSON.stringify('disable_empty_topic'),
        },
      }),
    );
    for (const name of ['Mantua', 'Milan'])
      expect(await channelNamed(name)).toMatchObject({ folderId: 1, topicsPolicy: 'disable_empty_topic' });
    expect((await foldersStore.getFolder(2, 1))!.channelCount).toBe(before + 2);
  });
});
