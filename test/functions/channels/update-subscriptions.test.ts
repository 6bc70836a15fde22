// PATCH /users/me/subscriptions (add and delete at once, upstream's update_subscriptions_backend)
// and PATCH /users/me/subscriptions/{stream_id} (one setting), against the development data:
// Cordelia (8) is on Verona (3) only; Denmark (1) is public, core team (6) private, Old Verona (7)
// archived.
import { handler as property } from '../../../functions/channels/property';
import { handler as updateSubscriptions } from '../../../functions/channels/update-subscriptions';
import * as channelsStore from '../../../lib/store/channels';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { setSubscribed } from '../../helpers/channels';
import { openQueue } from '../../helpers/events';

const patch = (as: string, params: Record<string, unknown>) =>
  call(updateSubscriptions, { method: 'PATCH', path: '/users/me/subscriptions', as, params });
const setProperty = (as: string, streamId: number, params: Record<string, unknown>) =>
  call(property, { ...atPath('PATCH', '/users/me/subscriptions/{stream_id}', { stream_id: streamId }), as, params });
const activeChannels = async (userId: number) =>
  (await channelsStore.listSubscriptionsOfUser(userId))
    .filter((s) => s.active)
    .map((s) => s.channelId)
    .sort((a, b) => a - b);

// Each test leaves Cordelia on Verona only (Denmark's row, inactive, keeps its color when reactivated, as upstream's).
afterEach(async () => {
  await setSubscribed(2, 8, 3, true);
  await setSubscribed(2, 8, 1, false);
});

describe('PATCH /users/me/subscriptions', () => {
  it('subscribes with the color asked and unsubscribes in one request, answering both halves', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    const result = expectSuccess(await patch('cordelia@zulip.com', { add: [{ name: 'Denmark', color: '#abc' }], delete: ['Verona'] }));
    expect(result).toEqual({
      result: 'success',
      msg: '',
      subscribed: { '8': ['Denmark'] },
      already_subscribed: {},
      removed: ['Verona'],
      not_removed: [],
    });
    expect(await activeChannels(8)).toEqual([1]);
    expect((await channelsStore.getSubscription(8, 1))?.color).toBe('#abc');
    const events = (await queue.drain()).filter((e) => e.type === 'subscription');
    expect(events.map((e) => e.op)).toEqual(['add', 'remove']);
    expect(events[0].subscriptions[0]).toMatchObject({ stream_id: 1, color: '#abc' });
    expect(events[1].subscriptions).toEqual([{ stream_id: 3, name: 'Verona' }]);
  });

  it('answers only delete, with empty subscribed lists', async () => {
    expect(expectSuccess(await patch('cordelia@zulip.com', { delete: ['Verona', 'Denmark'].slice(0, 1) }))).toEqual({
      result: 'success',
      msg: '',
      subscribed: {},
      already_subscribed: {},
      removed: ['Verona'],
      not_removed: [],
    });
  });

  it('may delete a channel that the same request creates', async () => {
    const result = expectSuccess(await patch('hamlet@zulip.com', { add: [{ name: 'Brand new' }], delete: ['Brand new'] }));
    expect(result).toMatchObject({ subscribed: { '10': ['Brand new'] }, removed: ['Brand new'], not_removed: [] });
  });

  it.each([
    [{}, 'Nothing to do. Specify at least one of "add" or "delete".'],
    [{ add: [], delete: [] }, 'Nothing to do. Specify at least one of "add" or "delete".'],
    [{ add: [{ name: 'Denmark' }], delete: ['Nowhere'] }, "Channel 'Nowhere' does not exist", 'STREAM_DOES_NOT_EXIST'],
    [{ add: [{ name: 'Denmark' }], delete: ['core team'] }, "Channel 'core team' does not exist", 'STREAM_DOES_NOT_EXIST'],
    [{ add: [{ name: 'Old Verona' }], delete: ['Verona'] }, "Channel 'Old Verona' is archived."],
    [{ add: [{ name: 'core team' }], delete: ['Verona'] }, 'Unable to access channel (core team).'],
    [{ add: [{ name: 'Denmark', color: 'red' }], delete: ['Verona'] }, 'add.color is not a valid hex color code'],
    [{ add: [{ name: 'Denmark', colour: '#abc' }] }, 'Argument "colour" at add[0]["colour"] is unexpected'],
    [{ add: [{ name: 'A new one' }], delete: ['Nowhere'] }, "Channel 'Nowhere' does not exist", 'STREAM_DOES_NOT_EXIST'],
  ])('refuses %j with "%s" and changes nothing', async (params, message, code = 'BAD_REQUEST') => {
    const queue = await openQueue('cordelia@zulip.com');
    expectError(await patch('cordelia@zulip.com', params), message, 400, code);
    expect(await activeChannels(8)).toEqual([3]);
    expect(await channelsStore.getChannelsByNames(2, ['A new one'])).toEqual([]);
    expect(await queue.drain()).toEqual([]);
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  it('changes one setting and tells only the caller', async () => {
    const [cordelia, hamlet] = [await openQueue('cordelia@zulip.com'), await openQueue('hamlet@zulip.com')];
    expectSuccess(await setProperty('cordelia@zulip.com', 3, { property: 'color', value: '#aabbcc' }));
    expect(await cordelia.drain()).toEqual([{ type: 'subscription', op: 'update', stream_id: 3, property: 'color', value: '#aabbcc' }]);
    expect(await hamlet.drain()).toEqual([]);
    expect((await channelsStore.getSubscription(8, 3))?.color).toBe('#aabbcc');
  });

  it('reads a JSON boolean value, and the legacy in_home_view also as is_muted', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await setProperty('cordelia@zulip.com', 3, { property: 'in_home_view', value: 'false' }));
    expect(await queue.drain()).toEqual([
      { type: 'subscription', op: 'update', stream_id: 3, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: 3, property: 'is_muted', value: true },
    ]);
    expect((await channelsStore.getSubscription(8, 3))?.isMuted).toBe(true);
  });

  it.each([
    [3, { property: 'font', value: 'true' }, 'Unknown subscription property: font'],
    // The property and value are checked before the channel, as upstream parses them first.
    [999, { property: 'pin_to_top', value: 'yes' }, 'pin_to_top is not a boolean'],
    [3, { property: 'color', value: 'true' }, 'color is not a valid hex color code'],
    [999, { property: 'pin_to_top', value: 'true' }, 'Invalid channel ID'],
    [6, { property: 'pin_to_top', value: 'true' }, 'Invalid channel ID'],
    [1, { property: 'pin_to_top', value: 'true' }, 'Not subscribed to channel ID 1'],
    [3, { property: 'pin_to_top' }, "Missing 'value' argument", 'REQUEST_VARIABLE_MISSING'],
  ])('channel %d with %j: "%s", nothing changed', async (streamId, params, message, code = 'BAD_REQUEST') => {
    const queue = await openQueue('cordelia@zulip.com');
    const before = await channelsStore.getSubscription(8, 3);
    expectError(await setProperty('cordelia@zulip.com', streamId, params), message, 400, code);
    expect(await channelsStore.getSubscription(8, 3)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });
});
