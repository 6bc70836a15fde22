// Legacy (unencrypted) push notifications end to end, against the local push bouncer
// (test/helpers/push.ts): a token registered as the app does it (POST /users/me/android_gcm_reg_id,
// /users/me/apns_device_token), a message sent by someone else, and the payloads the bouncer
// received through remotes/push/notify, as upstream's get_message_payload_gcm and
// get_message_payload_apns make them. The push job runs in this process after the send has
// answered (call() waits for it).
import { handler as addApns } from '../../../functions/devices/add-apns-token';
import { handler as addFcm } from '../../../functions/devices/add-fcm-token';
import { handler as registerDevice } from '../../../functions/devices/register';
import { handler as registerPush } from '../../../functions/devices/register-push';
import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { decryptPushPayload } from '../../../lib/models/push-notifications';
import { listPushTokensOfUser } from '../../../lib/store/push-tokens';
import { call, expectSuccess } from '../../helpers/api';
import { appRegistration, bouncerState, failBouncerRequests, usePushBouncer } from '../../helpers/push';
import { sendMessage as send } from '../../helpers/messages';

usePushBouncer();

const HAMLET = 10;
const IAGO = 11;
const OTHELLO = 12;
const REALM = {
  server: 'localhost:3000',
  realm_id: 2,
  realm_uri: 'http://localhost:3000',
  realm_url: 'http://localhost:3000',
  realm_name: 'Zulip Dev',
};

const sendDirect = async (as: string, to: number[], content: string): Promise<number> =>
  expectSuccess(await send(as, { type: 'direct', to: JSON.stringify(to), content })).id as number;

const legacyCount = async () => (await bouncerState()).legacyNotifications.length;
const legacySince = async (since: number) => (await bouncerState()).legacyNotifications.slice(since);

const hamletToken = `hamlet:APA91b${'h'.repeat(100)}`;
const othelloToken = Buffer.alloc(32, 0x0e).toString('hex');

describe('legacy push notifications of new messages', () => {
  beforeAll(async () => {
    expectSuccess(
      await call(addFcm, { method: 'POST', path: '/users/me/android_gcm_reg_id', as: 'hamlet@zulip.com', params: { token: hamletToken } }),
    );
    expectSuccess(
      await call(addApns, {
        method: 'POST',
        path: '/users/me/apns_device_token',
        as: 'othello@zulip.com',
        params: { token: othelloToken, appid: 'com.zulip.flutter' },
      }),
    );
  });

  it("sends an idle recipient's FCM token a direct message in upstream's payload", async () => {
    const before = await legacyCount();
    const id = await sendDirect('iago@zulip.com', [HAMLET], 'Hello **Hamlet**, see <this> & that');
    const [notification, ...rest] = await legacySince(before);
    expect(rest).toEqual([]);
    const bouncer = await bouncerState();
    expect(notification).toEqual({
      serverId: expect.any(String),
      realmUuid: bouncer.realms[0].uuid,
      userUuid: bouncer.legacyTokens.find((t) => t.token === hamletToken)!.userUuid,
      userId: HAMLET,
      androidTokens: [hamletToken],
      appleTokens: [],
      gcmOptions: { priority: 'high' },
      gcmPayload: {
        ...REALM,
        user_id: HAMLET,
        sender_id: IAGO,
        sender_email: 'iago@zulip.com',
        time: expect.any(Number),
        recipient_type: 'private',
        event: 'message',
        zulip_message_id: id,
        content: 'Hello Hamlet, see <this> & that',
        content_truncated: false,
        sender_full_name: 'Iago',
        sender_avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]+\?d=identicon&version=1$/),
      },
      apnsPayload: {
        alert: { title: 'Iago', subtitle: '', body: 'Hello Hamlet, see <this> & that' },
        sound: 'default',
        badge: 0,
        custom: {
          zulip: {
            ...REALM,
            user_id: HAMLET,
            sender_id: IAGO,
            sender_email: 'iago@zulip.com',
            time: notification.gcmPayload.time,
            recipient_type: 'private',
            message_ids: [id],
          },
        },
      },
    });
  });

  it('sends a mention in a channel with the stream, its id and the topic', async () => {
    const before = await legacyCount();
    const { id } = expectSuccess(
      await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'ask @**King Hamlet**' }),
    );
    const [notification, ...rest] = await legacySince(before);
    expect(rest).toEqual([]);
    expect(notification.gcmPayload).toMatchObject({
      user_id: HAMLET,
      event: 'message',
      zulip_message_id: id,
      recipient_type: 'stream',
      stream: 'Denmark',
      stream_id: 1,
      topic: 'castle',
      content: 'ask @King Hamlet',
      content_truncated: false,
    });
    expect(notification.apnsPayload).toMatchObject({
      alert: { title: '#Denmark > castle', subtitle: 'Iago mentioned you:', body: 'ask @King Hamlet' },
      custom: { zulip: { recipient_type: 'stream', stream: 'Denmark', stream_id: 1, topic: 'castle', message_ids: [id] } },
    });
  });

  it('sends APNs tokens of a group conversation its members, named in the title', async () => {
    const before = await legacyCount();
    const id = await sendDirect('iago@zulip.com', [HAMLET, OTHELLO], 'to both');
    const notifications = await legacySince(before);
    expect(notifications.map((n) => n.userId).sort()).toEqual([HAMLET, OTHELLO]);
    const othellos = notifications.find((n) => n.userId === OTHELLO)!;
    expect(othellos.appleTokens).toEqual([othelloToken]);
    expect(othellos.apnsPayload).toMatchObject({
      alert: { title: 'Iago, King Hamlet, Othello, the Moor of Venice', subtitle: 'Iago:', body: 'to both' },
      custom: { zulip: { recipient_type: 'private', pm_users: `${HAMLET},${IAGO},${OTHELLO}`, message_ids: [id] } },
    });
    expect(othellos.gcmPayload).toMatchObject({ pm_users: `${HAMLET},${IAGO},${OTHELLO}`, zulip_message_id: id });
  });

  it('cuts long content as the E2EE payload does, and says so', async () => {
    const before = await legacyCount();
    await sendDirect('iago@zulip.com', [HAMLET], 'x'.repeat(300));
    const [notification] = await legacySince(before);
    expect(notification.gcmPayload).toMatchObject({ content: `${'x'.repeat(199)}…`, content_truncated: true });
  });

  it('sends nothing for a channel message that notifies nobody, nor to the sender', async () => {
    const before = await legacyCount();
    expectSuccess(await send('iago@zulip.com', { type: 'stream', to: 'Denmark', topic: 'gate', content: 'nothing for anyone' }));
    await sendDirect('hamlet@zulip.com', [IAGO], 'Iago has no phone; Hamlet sent it');
    expect(await legacyCount()).toBe(before);
  });

  it('removes the notification once the message is read', async () => {
    const id = await sendDirect('iago@zulip.com', [HAMLET], 'read me');
    const before = await legacyCount();
    expectSuccess(
      await call(updateFlags, {
        method: 'POST',
        path: '/messages/flags',
        as: 'hamlet@zulip.com',
        params: { messages: [id], op: 'add', flag: 'read' },
      }),
    );
    const [removal, ...rest] = await legacySince(before);
    expect(rest).toEqual([]);
    expect(removal.androidTokens).toEqual([hamletToken]);
    expect(removal.gcmOptions).toEqual({ priority: 'normal' });
    expect(removal.gcmPayload).toEqual({ ...REALM, user_id: HAMLET, event: 'remove', zulip_message_ids: String(id), zulip_message_id: id });
    expect(removal.apnsPayload).toEqual({
      badge: 0,
      custom: { zulip: { ...REALM, user_id: HAMLET, event: 'remove', zulip_message_ids: String(id) } },
    });
  });

  it('retries a notification while the bouncer is down', async () => {
    const before = await legacyCount();
    await failBouncerRequests(1);
    const id = await sendDirect('iago@zulip.com', [OTHELLO], 'eventually');
    const notifications = await legacySince(before);
    expect(notifications.map((n) => n.gcmPayload.zulip_message_id)).toEqual([id]);
    const statuses = (await bouncerState()).requests.filter((r) => r.endpoint === 'push/notify').map((r) => r.status);
    expect(statuses.slice(-2)).toEqual([503, 200]);
  });

  it('sends a user with both an E2EE device and a legacy token both notifications, as upstream', async () => {
    const { device_id } = expectSuccess(
      await call(registerDevice, { method: 'POST', path: '/register_client_device', as: 'hamlet@zulip.com' }),
    );
    const registration = appRegistration();
    expectSuccess(
      await call(registerPush, {
        method: 'POST',
        path: '/mobile_push/register',
        as: 'hamlet@zulip.com',
        params: { device_id, ...registration },
      }),
    );
    const before = { legacy: await legacyCount(), e2ee: (await bouncerState()).notifications.length };
    const id = await sendDirect('iago@zulip.com', [HAMLET], 'both ways');
    const bouncer = await bouncerState();
    expect(bouncer.legacyNotifications.slice(before.legacy).map((n) => n.gcmPayload.zulip_message_id)).toEqual([id]);
    const [e2ee] = bouncer.notifications.slice(before.e2ee).flatMap((n) => n.pushRequests);
    const payload = e2ee.payload as { encrypted_data: string };
    expect(decryptPushPayload(payload.encrypted_data, registration.push_key)).toMatchObject({ type: 'message', message_id: id });
  });

  it('forgets the tokens the bouncer answers it no longer has', async () => {
    // The bouncer dropped Othello's token (as it does when APNs says it is gone).
    const token = Buffer.alloc(32, 0x0f).toString('hex');
    expectSuccess(
      await call(addApns, {
        method: 'POST',
        path: '/users/me/apns_device_token',
        as: 'othello@zulip.com',
        params: { token, appid: 'com.zulip.flutter' },
      }),
    );
    await fetch(`${process.env.PUSH_BOUNCER_URL}/__test/forget?server=${process.env.ZULIP_ORG_ID}&token=${token}`, { method: 'POST' });
    await sendDirect('iago@zulip.com', [OTHELLO], 'where is your phone');
    expect((await listPushTokensOfUser(OTHELLO)).map((t) => t.token)).toEqual([othelloToken]);
  });
});
