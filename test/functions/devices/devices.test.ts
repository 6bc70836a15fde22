import { handler as registerDevice } from '../../../functions/devices/register';
import { handler as registerPush } from '../../../functions/devices/register-push';
import { handler as removeDevice } from '../../../functions/devices/remove';
import { handler as register } from '../../../functions/events/register';
import { listClientDevicesOfUser } from '../../../lib/store/client-devices';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const add = (as: string) => call(registerDevice, { method: 'POST', path: '/register_client_device', as });
const remove = (as: string, deviceId: unknown) =>
  call(removeDevice, { method: 'POST', path: '/remove_client_device', as, params: { device_id: deviceId } });
const devicesOf = async (as: string) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['device'] } })).devices;

describe('client devices', () => {
  it("registers a device, answers its id and tells only the caller's clients", async () => {
    const mine = await openQueue('hamlet@zulip.com');
    const other = await openQueue('iago@zulip.com');
    const { device_id } = expectSuccess(await add('hamlet@zulip.com'));
    expect(Number.isInteger(device_id)).toBe(true);
    expect(await mine.drain()).toEqual([{ type: 'device', op: 'add', device_id }]);
    expect(await other.drain()).toEqual([]);
  });

  it("keeps register's devices in step: the previous snapshot plus the events", async () => {
    const before = await devicesOf('cordelia@zulip.com');
    const queue = await openQueue('cordelia@zulip.com');
    const first = expectSuccess(await add('cordelia@zulip.com')).device_id;
    expectSuccess(await add('cordelia@zulip.com'));
    expectSuccess(await remove('cordelia@zulip.com', first));
    const expected = { ...before };
    const empty = {
      push_key_id: null,
      push_token_id: null,
      pending_push_token_id: null,
      push_token_last_updated_timestamp: null,
      push_registration_error_code: null,
    };
    for (const e of await queue.drain()) {
      if (e.op === 'add') expected[e.device_id] = empty;
      else delete expected[e.device_id];
    }
    expect(await devicesOf('cordelia@zulip.com')).toEqual(expected);
    expect(Object.keys(expected)).toHaveLength(1);
  });

  it("refuses to remove another user's device, and keeps it", async () => {
    const { device_id } = expectSuccess(await add('othello@zulip.com'));
    const queue = await openQueue('othello@zulip.com');
    expectError(await remove('iago@zulip.com', device_id), 'Invalid device ID');
    expect((await listClientDevicesOfUser(12)).map((d) => d.deviceId)).toEqual([device_id]);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses to remove a device twice', async () => {
    const { device_id } = expectSuccess(await add('ZOE@zulip.com'));
    expectSuccess(await remove('ZOE@zulip.com', device_id));
    expectError(await remove('ZOE@zulip.com', device_id), 'Invalid device ID');
  });

  it('requires device_id as an integer', async () => {
    expectError(
      await call(removeDevice, { method: 'POST', path: '/remove_client_device', as: 'ZOE@zulip.com', params: {} }),
      "Missing 'device_id' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(await remove('ZOE@zulip.com', 'abc'), 'device_id is not valid JSON');
  });

  it("answers upstream's error for push registration, since push notifications are not configured", async () => {
    const { device_id } = expectSuccess(await add('prospero@zulip.com'));
    const result = await call(registerPush, {
      method: 'POST',
      path: '/mobile_push/register',
      as: 'prospero@zulip.com',
      params: {
        device_id,
        push_key_id: 7,
        push_key: 'AQ==',
        token_kind: 'fcm',
        token_id: 'AAAAAAAAAAA=',
        bouncer_public_key: 'x',
        encrypted_push_registration: 'y',
      },
    });
    expectError(result, 'Server is not configured to use push notification service.', 400, 'PUSH_SERVICE_NOT_CONFIGURED');
    expect(await devicesOf('prospero@zulip.com')).toEqual({
      [device_id]: {
        push_key_id: null,
        push_token_id: null,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: null,
        push_registration_error_code: null,
      },
    });
  });
});
