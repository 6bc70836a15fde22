// The legacy token routes the mobile app (zulip-flutter's registerFcmToken, registerApnsToken and
// their unregister twins) calls: POST and DELETE /users/me/android_gcm_reg_id and
// /users/me/apns_device_token, with the token (and an APNs token's appid) as raw strings. Against
// the local push bouncer (test/helpers/push.ts): the push job forwards each token to the bouncer's
// legacy remotes/push/register and unregister after the request has answered.
import { handler as addApns } from '../../../functions/devices/add-apns-token';
import { handler as addFcm } from '../../../functions/devices/add-fcm-token';
import { handler as removeApns } from '../../../functions/devices/remove-apns-token';
import { handler as removeFcm } from '../../../functions/devices/remove-fcm-token';
import { holdJobs, settleJobs } from '../../../lib/store/jobs';
import { listPushTokensOfUser } from '../../../lib/store/push-tokens';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { bouncerState, failBouncerRequests, usePushBouncer } from '../../helpers/push';

const server = usePushBouncer();

const HAMLET = 10;
const IAGO = 11;

const addFcmToken = (as: string, params: Record<string, unknown>, opts: { settleJobs?: boolean } = {}) =>
  call(addFcm, { method: 'POST', path: '/users/me/android_gcm_reg_id', as, params, ...opts });
const removeFcmToken = (as: string, params: Record<string, unknown>) =>
  call(removeFcm, { method: 'DELETE', path: '/users/me/android_gcm_reg_id', as, params });
const addApnsToken = (as: string, params: Record<string, unknown>) =>
  call(addApns, { method: 'POST', path: '/users/me/apns_device_token', as, params });
const removeApnsToken = (as: string, params: Record<string, unknown>) =>
  call(removeApns, { method: 'DELETE', path: '/users/me/apns_device_token', as, params });

/** An FCM registration token shaped like the app's. */
const fcmToken = (name: string) => `${name}:APA91b${'x'.repeat(140)}`;
/** An APNs device token as the app sends it: 32 bytes, hex. */
const apnsToken = (seed: number) => Buffer.alloc(32, seed).toString('hex');

const storedTokens = async (userId: number) =>
  (await listPushTokensOfUser(userId))
    .map(({ kind, token, appId }) => ({ kind, token, ...(appId ? { appId } : {}) }))
    .sort((a, b) => a.token.localeCompare(b.token));

const bouncerTokens = async (userId: number) =>
  (await bouncerState()).legacyTokens
    .filter((t) => t.userUuid !== null && legacyUuidOf[userId] === t.userUuid)
    .map(({ token, tokenKind, iosAppId }) => ({ token, tokenKind, iosAppId }))
    .sort((a, b) => a.token.localeCompare(b.token));

/** Each user's uuid at the bouncer, learnt from their first registration there. */
const legacyUuidOf: Record<number, string> = {};
const learnUuid = async (userId: number, token: string) => {
  const found = (await bouncerState()).legacyTokens.find((t) => t.token === token);
  if (found?.userUuid) legacyUuidOf[userId] = found.userUuid;
};

describe('POST /users/me/android_gcm_reg_id', () => {
  it('stores the token at once and registers it with the bouncer in the push job, by the user’s uuid', async () => {
    const token = fcmToken('hamlet-phone');
    holdJobs();
    expect((await addFcmToken('hamlet@zulip.com', { token }, { settleJobs: false })).body).toEqual({ result: 'success', msg: '' });
    expect(await storedTokens(HAMLET)).toEqual([{ kind: 'fcm', token }]);
    expect((await bouncerState()).legacyTokens).toEqual([]);
    await settleJobs();
    const bouncer = await bouncerState();
    expect(bouncer.legacyTokens).toEqual([
      {
        serverId: server.orgId(),
        realmUuid: bouncer.realms[0].uuid,
        userUuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        userId: null,
        token,
        tokenKind: 2,
        iosAppId: null,
      },
    ]);
    await learnUuid(HAMLET, token);
  });

  it('keeps several tokens of a user, and a second registration of one changes nothing stored', async () => {
    const first = fcmToken('hamlet-tablet');
    const second = fcmToken('hamlet-old-phone');
    expectSuccess(await addFcmToken('hamlet@zulip.com', { token: first }));
    const stored = await listPushTokensOfUser(HAMLET);
    expectSuccess(await addFcmToken('hamlet@zulip.com', { token: second }));
    expectSuccess(await addFcmToken('hamlet@zulip.com', { token: first }));
    expect((await listPushTokensOfUser(HAMLET)).filter((t) => t.token === first)).toEqual(stored.filter((t) => t.token === first));
    expect((await storedTokens(HAMLET)).map((t) => t.token)).toEqual(expect.arrayContaining([first, second]));
    expect((await bouncerTokens(HAMLET)).map((t) => t.token)).toEqual(expect.arrayContaining([first, second]));
    expect((await bouncerTokens(HAMLET)).filter((t) => t.token === first)).toHaveLength(1);
  });

  it('sends no event', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await addFcmToken('hamlet@zulip.com', { token: fcmToken('quiet') }));
    expect(await queue.drain()).toEqual([]);
  });

  it('retries the registration while the bouncer is down', async () => {
    const token = fcmToken('othello-phone');
    await failBouncerRequests(2);
    expectSuccess(await addFcmToken('othello@zulip.com', { token }));
    const bouncer = await bouncerState();
    expect(bouncer.legacyTokens.filter((t) => t.token === token)).toHaveLength(1);
    expect(
      bouncer.requests
        .filter((r) => r.endpoint === 'push/register')
        .map((r) => r.status)
        .slice(-3),
    ).toEqual([503, 503, 200]);
  });
});

describe('POST /users/me/apns_device_token', () => {
  it('stores an APNs token with the app id and registers both with the bouncer', async () => {
    const token = apnsToken(0xab);
    expectSuccess(await addApnsToken('iago@zulip.com', { token, appid: 'com.zulip.flutter' }));
    expect(await storedTokens(IAGO)).toEqual([{ kind: 'apns', token, appId: 'com.zulip.flutter' }]);
    await learnUuid(IAGO, token);
    expect(await bouncerTokens(IAGO)).toEqual([{ token, tokenKind: 1, iosAppId: 'com.zulip.flutter' }]);
  });

  it('keeps an FCM token and an APNs token of the same text apart', async () => {
    const token = apnsToken(0x11);
    expectSuccess(await addApnsToken('iago@zulip.com', { token, appid: 'org.zulip.Zulip' }));
    expectSuccess(await addFcmToken('iago@zulip.com', { token }));
    expect(
      (await storedTokens(IAGO))
        .filter((t) => t.token === token)
        .map((t) => t.kind)
        .sort(),
    ).toEqual(['apns', 'fcm']);
  });
});

describe('DELETE /users/me/android_gcm_reg_id and /users/me/apns_device_token', () => {
  it('removes the token and unregisters it from the bouncer', async () => {
    const token = fcmToken('cordelia-phone');
    expectSuccess(await addFcmToken('cordelia@zulip.com', { token }));
    expect((await bouncerState()).legacyTokens.some((t) => t.token === token)).toBe(true);
    expect((await removeFcmToken('cordelia@zulip.com', { token })).body).toEqual({ result: 'success', msg: '' });
    expect(await listPushTokensOfUser(8)).toEqual([]);
    const bouncer = await bouncerState();
    expect(bouncer.legacyTokens.some((t) => t.token === token)).toBe(false);
    expect(
      bouncer.requests
        .filter((r) => r.endpoint === 'push/unregister')
        .map((r) => r.status)
        .slice(-1),
    ).toEqual([200]);
  });

  it('removes an APNs token', async () => {
    const token = apnsToken(0x22);
    expectSuccess(await addApnsToken('cordelia@zulip.com', { token, appid: 'com.zulip.flutter' }));
    expectSuccess(await removeApnsToken('cordelia@zulip.com', { token }));
    expect(await listPushTokensOfUser(8)).toEqual([]);
    expect((await bouncerState()).legacyTokens.some((t) => t.token === token)).toBe(false);
  });

  it('retries the removal while the bouncer is down', async () => {
    const token = fcmToken('cordelia-tablet');
    expectSuccess(await addFcmToken('cordelia@zulip.com', { token }));
    await failBouncerRequests(1);
    expectSuccess(await removeFcmToken('cordelia@zulip.com', { token }));
    const bouncer = await bouncerState();
    expect(bouncer.legacyTokens.some((t) => t.token === token)).toBe(false);
    expect(
      bouncer.requests
        .filter((r) => r.endpoint === 'push/unregister')
        .map((r) => r.status)
        .slice(-2),
    ).toEqual([503, 200]);
  });

  it('does not unregister a token added again before its removal reached the bouncer', async () => {
    const token = fcmToken('prospero-phone');
    expectSuccess(await addFcmToken('prospero@zulip.com', { token }));
    holdJobs();
    expectSuccess(
      await call(removeFcm, {
        method: 'DELETE',
        path: '/users/me/android_gcm_reg_id',
        as: 'prospero@zulip.com',
        params: { token },
        settleJobs: false,
      }),
    );
    expectSuccess(await addFcmToken('prospero@zulip.com', { token }, { settleJobs: false }));
    await settleJobs();
    expect((await bouncerState()).legacyTokens.filter((t) => t.token === token)).toHaveLength(1);
    expect((await listPushTokensOfUser(14)).map((t) => t.token)).toEqual([token]);
  });
});

describe('legacy token refusals', () => {
  /** Refused with `msg`, and nothing stored, sent to the bouncer or told to anyone changes. */
  const refused = async (
    send: (as: string, params: Record<string, unknown>) => ReturnType<typeof call>,
    params: Record<string, unknown>,
    msg: string,
    code = 'BAD_REQUEST',
  ) => {
    const queue = await openQueue('desdemona@zulip.com');
    const before = { tokens: await listPushTokensOfUser(9), requests: (await bouncerState()).requests.length };
    expectError(await send('desdemona@zulip.com', params), msg, 400, code);
    expect(await listPushTokensOfUser(9)).toEqual(before.tokens);
    expect((await bouncerState()).requests.length).toBe(before.requests);
    expect(await queue.drain()).toEqual([]);
  };

  it.each([
    ['an empty token', ''],
    ['a token that is too long', 'x'.repeat(4097)],
  ])('refuses %s', async (_case, token) => {
    await refused(addFcmToken, { token }, 'Empty or invalid length token');
    await refused(addApnsToken, { token, appid: 'com.zulip.flutter' }, 'Empty or invalid length token');
    await refused(removeFcmToken, { token }, 'Empty or invalid length token');
    await refused(removeApnsToken, { token }, 'Empty or invalid length token');
  });

  it('accepts a token of exactly 4,096 characters', async () => {
    expectSuccess(await addFcmToken('desdemona@zulip.com', { token: 'y'.repeat(4096) }));
    expectSuccess(await removeFcmToken('desdemona@zulip.com', { token: 'y'.repeat(4096) }));
  });

  it.each([
    ['not hex', 'zz00'],
    ['odd length', 'abc'],
    ['base64', 'q83vEjRWeJA='],
  ])('refuses an APNs token that is %s', async (_case, token) => {
    await refused(addApnsToken, { token, appid: 'com.zulip.flutter' }, 'Invalid APNS token');
    await refused(removeApnsToken, { token }, 'Invalid APNS token');
  });

  it('refuses an app id that is not a bundle id, before the token', async () => {
    await refused(addApnsToken, { token: apnsToken(1), appid: 'com.zulip/flutter' }, 'appid has invalid format');
    await refused(addApnsToken, { token: '', appid: '' }, 'appid has invalid format');
  });

  it('needs the parameters the app sends', async () => {
    await refused(addFcmToken, {}, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
    await refused(addApnsToken, { token: apnsToken(1) }, "Missing 'appid' argument", 'REQUEST_VARIABLE_MISSING');
    await refused(removeApnsToken, {}, "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses to remove a token the caller does not have, or has of the other kind', async () => {
    const token = apnsToken(0x33);
    expectSuccess(await addApnsToken('hamlet@zulip.com', { token, appid: 'com.zulip.flutter' }));
    await refused(removeApnsToken, { token }, 'Token does not exist');
    expectSuccess(await addApnsToken('desdemona@zulip.com', { token: apnsToken(0x34), appid: 'com.zulip.flutter' }));
    await refused(removeFcmToken, { token: apnsToken(0x34) }, 'Token does not exist');
    expect((await listPushTokensOfUser(HAMLET)).some((t) => t.token === token)).toBe(true);
  });

  it('refuses bots', async () => {
    expectError(await addFcmToken('default-bot@zulip.com', { token: fcmToken('bot') }), 'This endpoint does not accept bot requests.');
    expectError(await removeFcmToken('default-bot@zulip.com', { token: fcmToken('bot') }), 'This endpoint does not accept bot requests.');
  });
});

describe('legacy tokens without push notifications configured', () => {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const name of ['PUSH_BOUNCER_URL', 'ZULIP_ORG_ID', 'ZULIP_ORG_KEY']) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
  });
  afterAll(() => Object.assign(process.env, saved));

  it('keeps and removes a token as upstream does, sending nothing anywhere', async () => {
    const token = fcmToken('polonius');
    expectSuccess(await addFcmToken('polonius@zulip.com', { token }));
    expect((await listPushTokensOfUser(13)).map((t) => t.token)).toEqual([token]);
    expectSuccess(await removeFcmToken('polonius@zulip.com', { token }));
    expect(await listPushTokensOfUser(13)).toEqual([]);
    expectError(await removeFcmToken('polonius@zulip.com', { token }), 'Token does not exist');
  });
});
