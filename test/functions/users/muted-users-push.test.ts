// Muted users and mobile push notifications, against the local push bouncer (test/helpers/push.ts):
// upstream's test_muted_message_send_notifications_not_enqueued, and the mute's withdrawal of what
// was already notified ("This will automatically clear any existing mobile push notifications
// related to the muted user"). Othello (12) has a phone; he mutes Iago (11).
import { handler as updateUserTopic } from '../../../functions/topics/update-user-topic';
import { handler as muteHandler } from '../../../functions/users/mute';
import { handler as unmuteHandler } from '../../../functions/users/unmute';
import { call, expectSuccess } from '../../helpers/api';
import { appRegistration, notificationCount, notificationsSince, registerPhone, usePushBouncer } from '../../helpers/push';
import { sendMessageId as send } from '../../helpers/messages';

usePushBouncer();

const OTHELLO = 12;

const muteCall = (handler: typeof muteHandler, method: string, as: string, id: number) =>
  call(handler, {
    method,
    path: `/users/me/muted_users/${id}`,
    routeKey: `${method} /users/me/muted_users/{muted_user_id}`,
    pathParameters: { muted_user_id: String(id) },
    as,
  });

describe('push notifications and muted users', () => {
  let keys: Record<string, string>;

  beforeAll(async () => {
    const phone: ReturnType<typeof appRegistration> = await registerPhone('othello@zulip.com');
    keys = { [phone.token_id]: phone.push_key };
  });

  afterEach(async () => {
    await muteCall(unmuteHandler, 'DELETE', 'othello@zulip.com', 11);
  });

  it("withdraws the notifications of the muted user's messages when the mute marks them read", async () => {
    const id = await send('iago@zulip.com', { type: 'direct', to: [OTHELLO], content: 'before the mute' });
    const before = await notificationCount();
    expectSuccess(await muteCall(muteHandler, 'POST', 'othello@zulip.com', 11));
    const removals = (await notificationsSince(before, keys)).flatMap((n) => n.pushRequests.map((r) => r.decrypted));
    expect(removals).toEqual([expect.objectContaining({ type: 'remove', user_id: OTHELLO, message_ids: [id] })]);
  });

  it('sends the muter no notification of a direct message from the muted user, but still of others', async () => {
    expectSuccess(await muteCall(muteHandler, 'POST', 'othello@zulip.com', 11));
    const before = await notificationCount();
    await send('iago@zulip.com', { type: 'direct', to: [OTHELLO], content: 'muted' });
    expect(await notificationCount()).toBe(before);
    const id = await send('hamlet@zulip.com', { type: 'direct', to: [OTHELLO], content: 'not muted' });
    const notified = (await notificationsSince(before, keys)).flatMap((n) => n.pushRequests.map((r) => r.decrypted));
    expect(notified).toEqual([expect.objectContaining({ type: 'message', user_id: OTHELLO, message_id: id })]);
  });

  it("sends the muter no notification of the muted user's mention, nor of a message in a topic the muter follows", async () => {
    const follow = { stream_id: 1, topic: 'muted watch', visibility_policy: 3 };
    expectSuccess(await call(updateUserTopic, { method: 'POST', path: '/user_topics', as: 'othello@zulip.com', params: follow }));
    expectSuccess(await muteCall(muteHandler, 'POST', 'othello@zulip.com', 11));
    const before = await notificationCount();
    await send('iago@zulip.com', { type: 'stream', to: 1, topic: 'muted watch', content: 'hello @**Othello, the Moor of Venice**' });
    await send('iago@zulip.com', { type: 'stream', to: 1, topic: 'muted watch', content: 'no mention' });
    expect(await notificationCount()).toBe(before);
    const id = await send('hamlet@zulip.com', { type: 'stream', to: 1, topic: 'muted watch', content: 'not muted' });
    const notified = (await notificationsSince(before, keys)).flatMap((n) => n.pushRequests.map((r) => r.decrypted));
    expect(notified).toEqual([expect.objectContaining({ type: 'message', user_id: OTHELLO, message_id: id })]);
  });
});
