// POST /users/me/subscriptions/properties against the development data: Hamlet (10) is subscribed
// to Verona (3), Denmark (1) and core team (6); Cordelia (8) to Verona only.
import { handler as properties } from '../../../functions/channels/properties';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const change = (as: string, subscription_data: unknown) =>
  call(properties, { method: 'POST', path: '/users/me/subscriptions/properties', as, params: { subscription_data } });

describe('POST /users/me/subscriptions/properties', () => {
  it('changes the color and tells only the caller', async () => {
    const [hamlet, cordelia] = [await openQueue('hamlet@zulip.com'), await openQueue('cordelia@zulip.com')];
    const data = [{ stream_id: 1, property: 'color', value: '#aabbcc' }];
    expect(expectSuccess(await change('hamlet@zulip.com', data))).toEqual({ result: 'success', msg: '' });
    expect(await hamlet.drain()).toEqual([{ type: 'subscription', op: 'update', stream_id: 1, property: 'color', value: '#aabbcc' }]);
    expect(await cordelia.drain()).toEqual([]);
    expect((await channelsStore.getSubscription(10, 1))?.color).toBe('#aabbcc');
  });

  it('mutes through the legacy in_home_view, sending both the legacy and the modern update', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await change('hamlet@zulip.com', [{ stream_id: 3, property: 'in_home_view', value: false }]));
    expect(await queue.drain()).toEqual([
      { type: 'subscription', op: 'update', stream_id: 3, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: 3, property: 'is_muted', value: true },
    ]);
    expect((await channelsStore.getSubscription(10, 3))?.isMuted).toBe(true);
  });

  it('changes several properties at once, pin_to_top and a notification setting', async () => {
    expectSuccess(
      await change('hamlet@zulip.com', [
        { stream_id: 6, property: 'pin_to_top', value: true },
        { stream_id: 6, property: 'push_notifications', value: false },
      ]),
    );
    expect(await channelsStore.getSubscription(10, 6)).toMatchObject({ pinToTop: true, pushNotifications: false });
  });

  it.each([
    ['an unknown property', [{ stream_id: 1, property: 'font', value: true }], 'Unknown subscription property: font'],
    ['a channel the caller cannot see', [{ stream_id: 6, property: 'pin_to_top', value: true }], 'Invalid channel ID'],
    ['a channel the caller is not on', [{ stream_id: 1, property: 'pin_to_top', value: true }], 'Not subscribed to channel ID 1'],
    ['a non-boolean value', [{ stream_id: 3, property: 'is_muted', value: 'yes' }], 'is_muted is not a boolean'],
    ['a bad color', [{ stream_id: 3, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
  ])('refuses %s, changing none of the changes', async (_what, data, msg) => {
    const queue = await openQueue('cordelia@zulip.com');
    const before = await channelsStore.getSubscription(8, 3);
    expectError(await change('cordelia@zulip.com', [{ stream_id: 3, property: 'pin_to_top', value: true }, ...data]), msg);
    expect(await channelsStore.getSubscription(8, 3)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });
});
