// DELETE /users/me/subscriptions against the development data: Denmark (1) has subscribers 7, 9,
// 10, 11, 12, 14, 15 and Iago (11) in its can_remove_subscribers_group; core team (6) is private
// (9, 10, 11); Cordelia (8) is on Verona (3) only; Polonius (13) is a guest on Verona.
import { handler as register } from '../../../functions/events/register';
import { handler as unsubscribe } from '../../../functions/channels/unsubscribe';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue, type TestQueue } from '../../helpers/events';

const unsub = (as: string, params: Record<string, unknown>) =>
  call(unsubscribe, { method: 'DELETE', path: '/users/me/subscriptions', as, params });

const openQueues = async (...emails: string[]): Promise<Record<string, TestQueue>> =>
  Object.fromEntries(await Promise.all(emails.map(async (e) => [e.split('@')[0], await openQueue(e)])));
const drainAll = async (queues: Record<string, TestQueue>): Promise<Record<string, any[]>> =>
  Object.fromEntries(await Promise.all(Object.entries(queues).map(async ([name, q]) => [name, await q.drain()])));
const count = async (id: number) => (await channelsStore.getChannel(2, id))!.subscriberCount;
const snapshot = async (as: string) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as,
      params: { fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } },
    }),
  );

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes the caller: remove to them, peer_remove to who sees subscribers, nothing to a guest outside', async () => {
    const queues = await openQueues('shiva@zulip.com', 'hamlet@zulip.com', 'polonius@zulip.com');
    const before = await count(2);
    expect(expectSuccess(await unsub('shiva@zulip.com', { subscriptions: ['Scotland'] }))).toEqual({
      result: 'success',
      msg: '',
      removed: ['Scotland'],
      not_removed: [],
    });
    expect(await drainAll(queues)).toEqual({
      shiva: [{ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 2, name: 'Scotland' }] }],
      hamlet: [{ type: 'subscription', op: 'peer_remove', stream_ids: [2], user_ids: [15] }],
      polonius: [],
    });
    expect(await count(2)).toBe(before - 1);
    expect(await channelsStore.listSubscriberIdsOfChannel(2)).not.toContain(15);
  });

  it('keeps register in step: the channel moves from subscriptions to unsubscribed', async () => {
    const before = await snapshot('prospero@zulip.com');
    expectSuccess(await unsub('prospero@zulip.com', { subscriptions: ['Venice'] }));
    const after = await snapshot('prospero@zulip.com');
    const venice = before.subscriptions.find((s: any) => s.stream_id === 4);
    expect(after.subscriptions).toEqual(before.subscriptions.filter((s: any) => s.stream_id !== 4));
    expect(after.unsubscribed).toEqual([...before.unsubscribed, { ...venice, subscriber_count: venice.subscriber_count - 1 }]);
  });

  it('answers not_removed for a channel the caller is not on, changing nothing', async () => {
    const before = await count(1);
    expect(expectSuccess(await unsub('cordelia@zulip.com', { subscriptions: ['Denmark'] }))).toMatchObject({
      removed: [],
      not_removed: ['Denmark'],
    });
    expect(await count(1)).toBe(before);
  });

  it('lets a member of can_remove_subscribers_group remove someone else', async () => {
    const queue = await openQueue('othello@zulip.com');
    expect(expectSuccess(await unsub('iago@zulip.com', { subscriptions: ['Denmark'], principals: [12] }))).toMatchObject({
      removed: ['Denmark'],
    });
    expect(await queue.drain()).toEqual([{ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 1, name: 'Denmark' }] }]);
  });

  it('refuses removing someone else without the permission, changing nothing', async () => {
    const before = await count(1);
    expectError(await unsub('hamlet@zulip.com', { subscriptions: ['Denmark'], principals: [14] }), 'Insufficient permission');
    expect(await count(1)).toBe(before);
    expect((await channelsStore.getSubscription(14, 1))?.active).toBe(true);
  });

  it.each([
    ['an unknown channel', 'cordelia@zulip.com', 'Atlantis'],
    ['a private channel the caller cannot see', 'cordelia@zulip.com', 'core team'],
    ["another organization's channel", 'cordelia@zulip.com', 'Britain'],
  ])('refuses %s as not existing', async (_what, as, name) => {
    const result = await unsub(as, { subscriptions: ['Verona', name] });
    expectError(result, `Channel '${name}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST');
    expect(result.body.stream).toBe(name);
    expect((await channelsStore.getSubscription(8, 3))?.active).toBe(true);
  });
});
