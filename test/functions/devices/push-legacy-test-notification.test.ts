// POST /mobile_push/test_notification (the legacy test notification) against the local push bouncer
// (test/helpers/push.ts): the bouncer's remotes/push/test_notification with upstream's base payload
// for each chosen token, sent in the request, and upstream's errors.
import { handler as addApns } from '../../../functions/devices/add-apns-token';
import { handler as addFcm } from '../../../functions/devices/add-fcm-token';
import { handler as testNotification } from '../../../functions/devices/test-notification';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { bouncerState, failBouncerRequests, usePushBouncer } from '../../helpers/push';

usePushBouncer();

const sendTest = (as: string, params: Record<string, unknown> = {}) =>
  call(testNotification, { method: 'POST', path: '/mobile_push/test_notification', as, params });

const addFcmToken = async (as: string, token: string) =>
  expectSuccess(await call(addFcm, { method: 'POST', path: '/users/me/android_gcm_reg_id', as, params: { token } }));

const testsSince = async (since: number) => (await bouncerState()).legacyTests.slice(since);
const testCount = async () => (await bouncerState()).legacyTests.length;

describe('POST /mobile_push/test_notification', () => {
  it("sends the bouncer upstream's base payload for the chosen token only", async () => {
    await addFcmToken('hamlet@zulip.com', 'hamlet-phone');
    await addFcmToken('hamlet@zulip.com', 'hamlet-tablet');
    const before = await testCount();
    expect((await sendTest('hamlet@zulip.com', { token: 'hamlet-phone' })).body).toEqual({ result: 'success', msg: '' });
    expect(await testsSince(before)).toEqual([
      {
        serverId: expect.any(String),
        token: 'hamlet-phone',
        tokenKind: 2,
        basePayload: {
          server: 'localhost:3000',
          realm_id: 2,
          realm_uri: 'http://localhost:3000',
          realm_url: 'http://localhost:3000',
          realm_name: 'Zulip Dev',
          user_id: 10,
        },
      },
    ]);
  });

  it('sends it for every token of the caller without `token`, of either kind', async () => {
    const apns = Buffer.alloc(32, 7).toString('hex');
    await addFcmToken('cordelia@zulip.com', 'cordelia-phone');
    expectSuccess(
      await call(addApns, {
        method: 'POST',
        path: '/users/me/apns_device_token',
        as: 'cordelia@zulip.com',
        params: { token: apns, appid: 'com.zulip.flutter' },
      }),
    );
    const before = await testCount();
    expectSuccess(await sendTest('cordelia@zulip.com'));
    expect((await testsSince(before)).map((t) => [t.token, t.tokenKind]).sort()).toEqual([
      [apns, 1],
      ['cordelia-phone', 2],
    ]);
  });

  it('succeeds with nothing to send when the caller has no token', async () => {
    const before = (await bouncerState()).requests.length;
    expectSuccess(await sendTest('iago@zulip.com'));
    expect((await bouncerState()).requests.length).toBe(before);
  });

  it("refuses a token that is not the caller's", async () => {
    await addFcmToken('othello@zulip.com', 'othello-phone');
    const before = (await bouncerState()).requests.length;
    expectError(await sendTest('iago@zulip.com', { token: 'othello-phone' }), 'Device not recognized', 400, 'INVALID_PUSH_DEVICE_TOKEN');
    expectError(await sendTest('iago@zulip.com', { token: 'nothing' }), 'Device not recognized', 400, 'INVALID_PUSH_DEVICE_TOKEN');
    expect((await bouncerState()).requests.length).toBe(before);
  });

  it('answers when the bouncer does not know the token', async () => {
    await addFcmToken('ZOE@zulip.com', 'zoe-phone');
    await fetch(`${process.env.PUSH_BOUNCER_URL}/__test/forget?server=${process.env.ZULIP_ORG_ID}&token=zoe-phone`, { method: 'POST' });
    expectError(
      await sendTest('ZOE@zulip.com', { token: 'zoe-phone' }),
      'Device not recognized by the push bouncer',
      400,
      'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
    );
  });

  it("answers upstream's 502 when the bouncer fails", async () => {
    await addFcmToken('prospero@zulip.com', 'prospero-phone');
    await failBouncerRequests(1);
    expectError(
      await sendTest('prospero@zulip.com', { token: 'prospero-phone' }),
      'Internal server error on Zulip push notification service, retry later.',
      502,
      'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    );
  });

  it('refuses bots', async () => {
    expectError(await sendTest('default-bot@zulip.com'), 'This endpoint does not accept bot requests.');
  });
});

describe('POST /mobile_push/test_notification without push notifications configured', () => {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const name of ['PUSH_BOUNCER_URL', 'ZULIP_ORG_ID', 'ZULIP_ORG_KEY']) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
  });
  afterAll(() => Object.assign(process.env, saved));

  it('sends nothing and succeeds for a token of the caller, as upstream with no way to send', async () => {
    await addFcmToken('polonius@zulip.com', 'polonius-phone');
    expectSuccess(await sendTest('polonius@zulip.com', { token: 'polonius-phone' }));
    expectError(await sendTest('polonius@zulip.com', { token: 'other' }), 'Device not recognized', 400, 'INVALID_PUSH_DEVICE_TOKEN');
  });
});
