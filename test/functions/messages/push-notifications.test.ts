// Mobile push notifications end to end, against the local push bouncer (test/helpers/push.ts):
// a device registered as the app does it, a message sent by someone else, and what the bouncer
// received, decrypted with the device's key into the payload the app reads. The push job runs in
// this process after the send has answered (call() waits for it unless told not to).
import { handler as updatePresence } from '../../../functions/presence/update';
import { handler as updateSettings } from '../../../functions/settings/update';
import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { handler as markAllRead } from '../../../functions/messages/mark-all-read';
import { handler as updateUserTopic } from '../../../functions/topics/update-user-topic';
import { holdJobs, settleJobs } from '../../../lib/store/jobs';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import {
  appRegistration,
  bouncerState,
  failBouncerRequests,
  notificationCount,
  notificationsSince,
  registerPhone,
  usePushBouncer,
} from '../../helpers/push';
import { sendMessage as send } from '../../helpers/messages';

usePushBouncer();

const HAMLET = 10;
const IAGO = 11;
const OTHELLO = 12;

const sendDirect = async (as: string, to: number[], content: string): Promise<number> =>
  expectSuccess(await send(as, { type: 'direct', to: JSON.stringify(to), content })).id as number;

describe('push notifications of new messages', () => {
  let hamletPhone: ReturnType<typeof appRegistration>;
  let keys: Record<string, string>;

  beforeAll(async () => {
    hamletPhone = await registerPhone('hamlet@zulip.com');
    const othelloPhone = await registerPhone('othello@zulip.com', { tokenKind: 'apns' });
    keys = { [hamletPhone.token_id]: hamletPhone.push_key, [othelloPhone.token_id]: othelloPhone.push_key };
  });

  it("sends an idle recipient's device a direct message, encrypted with the device's key, in upstream's payload", async () => {
    const before = await notificationCount();
    const id = await sendDirect('iago@zulip.com', [HAMLET], 'Hello **Hamlet**, see <this> & that');
    const [notification, ...rest] = await notificationsSince(before, keys);
    expect(rest).toEqual([]);
    expect(notification.pushRequests).toEqual([
      {
        token_id: hamletPhone.token_id,
        fcm_priority: 'high',
        payload: { push_key_id: hamletPhone.push_key_id, encrypted_data: expect.any(String) },
        decrypted: {
          type: 'message',
          realm_name: 'Zulip Dev',
          realm_url: 'http://localhost:3000',
          user_id: HAMLET,
          message_id: id,
          sender_id: IAGO,
          sender_full_name: 'Iago',
          sender_avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]+\?d=identicon&version=1$/),
          time: expect.any(Number),
          content: 'Hello Hamlet, see <this> & that',
          recipient_type: 'direct',
          recipient_user_ids: [HAMLET, IAGO],
        },
      },
    ]);
    expect(notification.realmUuid).toBe((await bouncerState()).realms[0].uuid);
  });

  it('sends APNs devices the alert the bouncer forwards, and a group conversation its members', async () => {
    const before = await notificationCount();
    const id = await sendDirect('iago@zulip.com', [HAMLET, OTHELLO], 'to both');
    const requests = (await notificationsSince(before, keys)).flatMap((n) => n.pushRequests);
    const othellos = requests.find((r) => r.http_headers !== undefined)!;
    expect(othellos).toMatchObject({
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
      decrypted: { user_id: OTHELLO, message_id: id, recipient_user_ids: [HAMLET, IAGO, OTHELLO] },
    });
    expect(requests.map((r) => (r.decrypted as { user_id: number }).user_id).sort()).toEqual([HAMLET, OTHELLO]);
  });

  it('sends a mention in a channel with the channel and topic', async () => {
    const before = await notificationCount();
    const { id } = expectSuccess(
      await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'ask @**King Hamlet**' }),
    );
    const [notification] = await notificationsSince(before, keys);
    expect(notification.pushRequests.map((r) => r.decrypted)).toEqual([
      expect.objectContaining({
        user_id: HAMLET,
        message_id: id,
        recipient_type: 'channel',
        channel_id: 1,
        channel_name: 'Denmark',
        topic: 'castle',
        content: 'ask @King Hamlet',
      }),
    ]);
  });

  it('sends nothing for a channel message that mentions nobody, nor to the sender', async () => {
    const before = await notificationCount();
    // Not 'castle': Hamlet follows it since he was mentioned there (automatically_follow_topics_where_mentioned).
    expectSuccess(await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'gate', content: 'nothing for anyone' }));
    await sendDirect('hamlet@zulip.com', [IAGO], 'Iago has no phone; Hamlet sent it');
    expect(await notificationCount()).toBe(before);
  });

  it('sends nothing to a recipient who is using a client (an event queue and recent activity)', async () => {
    await openQueue('hamlet@zulip.com');
    expectSuccess(
      await call(updatePresence, { method: 'POST', path: '/users/me/presence', as: 'hamlet@zulip.com', params: { status: 'active' } }),
    );
    const before = await notificationCount();
    await sendDirect('iago@zulip.com', [HAMLET], 'you are here anyway');
    expect(await notificationCount()).toBe(before);
  });

  it('sends nothing to a recipient who turned mobile notifications off', async () => {
    const off = { enable_offline_push_notifications: false };
    expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: off }));
    const before = await notificationCount();
    await sendDirect('iago@zulip.com', [OTHELLO], 'you will not hear of this');
    expect(await notificationCount()).toBe(before);
    const on = { enable_offline_push_notifications: true };
    expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: on }));
  });

  it('does not make the send wait for the bouncer', async () => {
    const before = await notificationCount();
    holdJobs();
    const result = await send('iago@zulip.com', { type: 'direct', to: JSON.stringify([OTHELLO]), content: 'later' }, { settleJobs: false });
    expectSuccess(result);
    expect(await notificationCount()).toBe(before);
    await settleJobs();
    expect(await notificationCount()).toBe(before + 1);
  });

  it('retries a notification while the bouncer is down, and sends it once', async () => {
    const before = await notificationCount();
    await failBouncerRequests(2);
    const id = await sendDirect('iago@zulip.com', [OTHELLO], 'eventually');
    const notifications = await notificationsSince(before, keys);
    expect(notifications.map((n) => (n.pushRequests[0].decrypted as { message_id: number }).message_id)).toEqual([id]);
    const statuses = (await bouncerState()).requests.filter((r) => r.endpoint === 'push/e2ee/notify').map((r) => r.status);
    expect(statuses.slice(-3)).toEqual([503, 503, 200]);
  });

  it('removes the notification from the phones once the message is read, and only then', async () => {
    const id = await sendDirect('iago@zulip.com', [OTHELLO], 'read me');
    const before = await notificationCount();
    const read = (messages: number[]) =>
      call(updateFlags, {
        method: 'POST',
        path: '/messages/flags',
        as: 'othello@zulip.com',
        params: { messages, op: 'add', flag: 'read' },
      });
    expectSuccess(await read([id]));
    const [removal, ...rest] = await notificationsSince(before, keys);
    expect(rest).toEqual([]);
    expect(removal.pushRequests.map((r) => r.decrypted)).toEqual([
      { type: 'remove', realm_name: 'Zulip Dev', realm_url: 'http://localhost:3000', user_id: OTHELLO, message_ids: [id] },
    ]);
    // Read again, or a message that was never notified: nothing to remove.
    const quiet = expectSuccess(await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'gate', content: 'no mention' })).id;
    expectSuccess(await read([id, quiet]));
    expect(await notificationCount()).toBe(before + 1);
  });

  it('removes every notification when all messages are marked read', async () => {
    const first = await sendDirect('iago@zulip.com', [OTHELLO], 'one');
    const second = await sendDirect('iago@zulip.com', [OTHELLO], 'two');
    const before = await notificationCount();
    expectSuccess(await call(markAllRead, { method: 'POST', path: '/mark_all_as_read', as: 'othello@zulip.com' }));
    const removals = (await notificationsSince(before, keys)).flatMap((n) =>
      n.pushRequests.map((r) => r.decrypted as { type: string; message_ids: number[] }),
    );
    expect(removals).toHaveLength(1);
    expect(removals[0].type).toBe('remove');
    expect(removals[0].message_ids).toEqual(expect.arrayContaining([first, second]));
  });

  it("sends a followed topic's messages to its followers, as their followed-topic setting says", async () => {
    const follow = { stream_id: 1, topic: 'watchtower', visibility_policy: 3 };
    expectSuccess(await call(updateUserTopic, { method: 'POST', path: '/user_topics', as: 'othello@zulip.com', params: follow }));
    let before = await notificationCount();
    const { id } = expectSuccess(
      await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'watchtower', content: 'all quiet' }),
    );
    const [notification] = await notificationsSince(before, keys);
    expect(notification.pushRequests.map((r) => r.decrypted)).toEqual([
      expect.objectContaining({ user_id: OTHELLO, message_id: id, recipient_type: 'channel', topic: 'watchtower' }),
    ]);
    const off = { enable_followed_topic_push_notifications: false };
    expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: off }));
    before = await notificationCount();
    expectSuccess(await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'watchtower', content: 'still quiet' }));
    expect(await notificationCount()).toBe(before);
  });

  it('sends a wildcard mention to those whose wildcard_mentions_notify is on', async () => {
    const othellosSince = async (since: number) =>
      (await notificationsSince(since, keys))
        .flatMap((n) => n.pushRequests.map((r) => r.decrypted as { user_id: number; message_id: number }))
        .filter((p) => p.user_id === OTHELLO);
    let before = await notificationCount();
    const { id } = expectSuccess(
      await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'news', content: '@**all** hear ye' }),
    );
    expect(await othellosSince(before)).toEqual([expect.objectContaining({ user_id: OTHELLO, message_id: id })]);
    const off = { wildcard_mentions_notify: false };
    expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: off }));
    before = await notificationCount();
    expectSuccess(await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'news', content: '@**all** again' }));
    expect(await othellosSince(before)).toEqual([]);
  });
});
