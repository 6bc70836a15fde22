// Channel names are unique in an organization ignoring case, also when several requests create
// the same name at once (the CHANNELNAME# lock, written in one transaction with the channel): one
// channel is created and every request that lost subscribes to it, as upstream's get_or_create.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import * as channelsStore from '../../../lib/store/channels';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import { call, expectError, expectSuccess } from '../../helpers/api';

const sub = (as: string, params: Record<string, unknown>) =>
  call(subscribe, { method: 'POST', path: '/users/me/subscriptions', as, params });

/** The organization's channels with this name, ignoring case. */
const channelsNamed = async (name: string) =>
  (await channelsStore.listChannelsOfRealm(2, { consistent: true })).filter((c) => c.name.toLowerCase() === name.toLowerCase());

describe('POST /users/me/subscriptions creating one name concurrently', () => {
  it('creates one channel for two requests in different case, and subscribes both callers to it', async () => {
    const [hamlet, othello] = await Promise.all([
      sub('hamlet@zulip.com', { subscriptions: [{ name: 'Elsinore' }] }),
      sub('othello@zulip.com', { subscriptions: [{ name: 'ELSINORE' }] }),
    ]);
    const [channel, ...others] = await channelsNamed('elsinore');
    expect(others).toEqual([]);
    expect(expectSuccess(hamlet).subscribed).toEqual({ '10': [channel.name] });
    expect(expectSuccess(othello).subscribed).toEqual({ '12': [channel.name] });
    expect(await channelsStore.listSubscriberIdsOfChannel(channel.id)).toEqual([10, 12]);
    expect((await channelsStore.getChannel(2, channel.id))!.subscriberCount).toBe(2);
  });

  it('creates one channel for six concurrent requests, with all six callers subscribed', async () => {
    const emails = ['AARON@zulip.com', 'cordelia@zulip.com', 'hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com', 'shiva@zulip.com'];
    const results = await Promise.all(emails.map((as) => sub(as, { subscriptions: [{ name: 'Wittenberg' }] })));
    results.forEach((r) => expectSuccess(r));
    const [channel, ...others] = await channelsNamed('wittenberg');
    expect(others).toEqual([]);
    expect(await channelsStore.listSubscriberIdsOfChannel(channel.id)).toEqual([6, 8, 10, 11, 12, 15]);
    expect((await channelsStore.getChannel(2, channel.id))!.subscriberCount).toBe(6);
  });

  it('keeps a lock naming the channel, lowercased', async () => {
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Inverness Castle' }] }));
    const [channel] = await channelsNamed('inverness castle');
    const lock = await documentClient().send(
      new GetCommand({ TableName: tableName('main'), Key: entityKeys.channelName(2, 'INVERNESS castle') }),
    );
    expect(lock.Item).toEqual({ pk: 'REALM#2', sk: 'CHANNELNAME#inverness castle', realmId: 2, channelId: channel.id });
  });

  it("answers an existing private channel's name in another case as that channel, which the caller may not join", async () => {
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Secret Passage' }], invite_only: true }));
    expectError(
      await sub('cordelia@zulip.com', { subscriptions: [{ name: 'SECRET PASSAGE' }] }),
      'Unable to access channel (Secret Passage).',
    );
    const [channel, ...others] = await channelsNamed('secret passage');
    expect(others).toEqual([]);
    expect(await channelsStore.listSubscriberIdsOfChannel(channel.id)).toEqual([10]);
  });

  it("refuses a seeded channel's name in another case as that archived channel", async () => {
    expectError(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'old verona' }] }), "Channel 'Old Verona' is archived.");
    expect(await channelsNamed('old verona')).toHaveLength(1);
  });
});
