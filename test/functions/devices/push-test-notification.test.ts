// POST /mobile_push/e2ee/test_notification against the local push bouncer (test/helpers/push.ts):
// upstream's `test` payload, encrypted for each chosen device, and upstream's errors.
import { handler as registerDevice } from '../../../functions/devices/register';
import { handler as registerPush } from '../../../functions/devices/register-push';
import { handler as testNotification } from '../../../functions/devices/e2ee-test-notification';
import { decryptPushPayload } from '../../../lib/models/push-notifications';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { appRegistration, bouncerState, failBouncerRequests, usePushBouncer } from '../../helpers/push';

usePushBouncer();

const registerPhone = async (as: string) => {
  const { device_id } = expectSuccess(await call(registerDevice, { method: 'POST', path: '/register_client_device', as }));
  const registration = appRegistration();
  expectSuccess(await call(registerPush, { method: 'POST', path: '/mobile_push/register', as, params: { device_id, ...registration } }));
  return { deviceId: device_id as number, ...registration };
};

const sendTest = (as: string, params: Record<string, unknown> = {}) =>
  call(testNotification, { method: 'POST', path: '/mobile_push/e2ee/test_notification', as, params });

/** The push requests of the notifications the bouncer received since `since`. */
const requestsSince = async (since: number) => (await bouncerState()).notifications.slice(since).flatMap((n) => n.pushRequests);

describe('POST /mobile_push/e2ee/test_notification', () => {
  it("sends upstream's test payload to the chosen device only", async () => {
    const first = await registerPhone('hamlet@zulip.com');
    await registerPhone('hamlet@zulip.com');
    const before = (await bouncerState()).notifications.length;
    expect((await sendTest('hamlet@zulip.com', { device_id: first.deviceId })).body).toEqual({ result: 'success', msg: '' });
    const requests = await requestsSince(before);
    expect(requests.map((r) => r.token_id)).toEqual([first.token_id]);
    const payload = requests[0].payload as { push_key_id: number; encrypted_data: string };
    expect(payload.push_key_id).toBe(first.push_key_id);
    expect(decryptPushPayload(payload.encrypted_data, first.push_key)).toEqual({
      type: 'test',
      realm_name: 'Zulip Dev',
      realm_url: 'http://localhost:3000',
      user_id: 10,
      time: expect.any(Number),
    });
  });

  it('sends it to every registered device without device_id', async () => {
    const a = await registerPhone('cordelia@zulip.com');
    const b = await registerPhone('cordelia@zulip.com');
    const before = (await bouncerState()).notifications.length;
    expectSuccess(await sendTest('cordelia@zulip.com'));
    expect((await requestsSince(before)).map((r) => r.token_id).sort()).toEqual([a.token_id, b.token_id].sort());
  });

  it('refuses when the caller has no registered device, or names another', async () => {
    expectError(await sendTest('iago@zulip.com'), 'No active registered push device', 400, 'NO_ACTIVE_PUSH_DEVICE');
    const othello = await registerPhone('othello@zulip.com');
    expectError(
      await sendTest('iago@zulip.com', { device_id: othello.deviceId }),
      'No active registered push device',
      400,
      'NO_ACTIVE_PUSH_DEVICE',
    );
  });

  it("answers upstream's 502 when the bouncer fails", async () => {
    await registerPhone('ZOE@zulip.com');
    await failBouncerRequests(1);
    expectError(
      await sendTest('ZOE@zulip.com'),
      'Internal server error on Zulip push notification service, retry later.',
      502,
      'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    );
  });

  it('refuses bots', async () => {
    expectError(await sendTest('default-bot@zulip.com'), 'This endpoint does not accept bot requests.');
  });
});
