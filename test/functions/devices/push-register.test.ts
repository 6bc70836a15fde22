// POST /mobile_push/register with push notifications configured (the local push bouncer, as a
// server of this file's own: test/helpers/push.ts), with every value encoded as the app sends it
// (device_id and push_key_id JSON, the rest raw strings). The registration reaches the bouncer
// through the push job (in this process; call() waits for it), and the device's state follows
// upstream's: a pending token, then the registered one or an error code.
import { handler as registerDevice } from '../../../functions/devices/register';
import { handler as registerPush } from '../../../functions/devices/register-push';
import { handler as register } from '../../../functions/events/register';
import { handler as serverSettings } from '../../../functions/auth/server-settings';
import { advanceClock, resetClock } from '../../../lib/clock';
import { holdJobs, releaseJobs, settleJobs } from '../../../lib/store/jobs';
import { listClientDevicesOfUser } from '../../../lib/store/client-devices';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { appRegistration, bouncerState, failBouncerRequests, usePushBouncer } from '../../helpers/push';

const server = usePushBouncer();

const newDevice = async (as: string): Promise<number> =>
  expectSuccess(await call(registerDevice, { method: 'POST', path: '/register_client_device', as })).device_id as number;

const pushRegister = (as: string, params: Record<string, unknown>, opts: { settleJobs?: boolean } = {}) =>
  call(registerPush, { method: 'POST', path: '/mobile_push/register', as, params, ...opts });

const devicesOf = async (as: string, opts: { settleJobs?: boolean } = {}) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['device'] }, ...opts }))
    .devices;

/** A device of `as` registered with the bouncer; its registration's fields. */
const registeredDevice = async (as: string) => {
  const deviceId = await newDevice(as);
  const registration = appRegistration();
  expectSuccess(await pushRegister(as, { device_id: deviceId, ...registration }));
  return { deviceId, registration };
};

describe('POST /mobile_push/register with a push bouncer', () => {
  it('reports push notifications as enabled in server settings and register', async () => {
    expect(expectSuccess(await call(serverSettings, { method: 'GET', path: '/server_settings' })).push_notifications_enabled).toBe(true);
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(state.realm_push_notifications_enabled).toBe(true);
  });

  it('registers a device: a pending token at once, the registered token once the bouncer has it', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    const queue = await openQueue('hamlet@zulip.com');
    const other = await openQueue('iago@zulip.com');
    const registration = appRegistration({ pushKeyId: 4242 });
    holdJobs();
    const result = await pushRegister('hamlet@zulip.com', { device_id: deviceId, ...registration }, { settleJobs: false });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    const pendingState = (await devicesOf('hamlet@zulip.com', { settleJobs: false }))[deviceId];
    expect(pendingState).toEqual({
      push_key_id: 4242,
      push_token_id: null,
      pending_push_token_id: registration.token_id,
      push_token_last_updated_timestamp: expect.any(Number),
      push_registration_error_code: null,
    });
    await settleJobs();
    expect(await queue.drain()).toEqual([
      {
        type: 'device',
        op: 'update',
        device_id: deviceId,
        push_key_id: 4242,
        pending_push_token_id: registration.token_id,
        push_token_last_updated_timestamp: pendingState.push_token_last_updated_timestamp,
        push_registration_error_code: null,
      },
      { type: 'device', op: 'update', device_id: deviceId, push_token_id: registration.token_id, pending_push_token_id: null },
    ]);
    expect(await other.drain()).toEqual([]);
    expect((await devicesOf('hamlet@zulip.com'))[deviceId]).toMatchObject({
      push_key_id: 4242,
      push_token_id: registration.token_id,
      pending_push_token_id: null,
    });
    const bouncer = await bouncerState();
    expect(bouncer.devices).toEqual([
      {
        serverId: server.orgId(),
        realmUuid: bouncer.realms[0].uuid,
        tokenId: registration.token_id,
        encryptedPushRegistration: registration.encrypted_push_registration,
      },
    ]);
  });

  it('registers this server and its organization with the bouncer on first use', async () => {
    await registeredDevice('cordelia@zulip.com');
    const bouncer = await bouncerState();
    expect(bouncer.servers).toEqual([{ id: server.orgId(), hostname: 'localhost:3000', contactEmail: 'admin@localhost' }]);
    expect(bouncer.realms).toEqual([
      {
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        serverId: server.orgId(),
        name: 'Zulip Dev',
        url: 'http://localhost:3000',
      },
    ]);
  });

  it('changes nothing when the same registration is sent again', async () => {
    const deviceId = await newDevice('othello@zulip.com');
    const registration = appRegistration();
    expectSuccess(await pushRegister('othello@zulip.com', { device_id: deviceId, ...registration }));
    const queue = await openQueue('othello@zulip.com');
    const before = (await bouncerState()).requests.length;
    expectSuccess(await pushRegister('othello@zulip.com', { device_id: deviceId, ...registration }));
    expect(await queue.drain()).toEqual([]);
    expect((await bouncerState()).requests.length).toBe(before);
  });

  it('rotates the push key of a registered device, telling only what changed', async () => {
    const { deviceId, registration } = await registeredDevice('ZOE@zulip.com');
    const queue = await openQueue('ZOE@zulip.com');
    const rotated = appRegistration({ pushKeyId: 77 });
    expectSuccess(await pushRegister('ZOE@zulip.com', { device_id: deviceId, push_key: rotated.push_key, push_key_id: 77 }));
    expect(await queue.drain()).toEqual([{ type: 'device', op: 'update', device_id: deviceId, push_key_id: 77 }]);
    expect((await devicesOf('ZOE@zulip.com'))[deviceId]).toMatchObject({ push_key_id: 77, push_token_id: registration.token_id });
    const [stored] = (await listClientDevicesOfUser(7)).filter((d) => d.deviceId === deviceId);
    expect(stored.push?.key).toBe(rotated.push_key);
  });

  it('rotates the token of a registered device through the bouncer', async () => {
    const { deviceId } = await registeredDevice('prospero@zulip.com');
    const queue = await openQueue('prospero@zulip.com');
    const rotated = appRegistration();
    const { push_key: _k, push_key_id: _i, ...tokenFields } = rotated;
    expectSuccess(await pushRegister('prospero@zulip.com', { device_id: deviceId, ...tokenFields }));
    expect(await queue.drain()).toEqual([
      {
        type: 'device',
        op: 'update',
        device_id: deviceId,
        pending_push_token_id: rotated.token_id,
        push_token_last_updated_timestamp: expect.any(Number),
        push_registration_error_code: null,
      },
      { type: 'device', op: 'update', device_id: deviceId, push_token_id: rotated.token_id, pending_push_token_id: null },
    ]);
  });

  it('records the error code when the bouncer refuses the registration, and allows registering again', async () => {
    const deviceId = await newDevice('aaron@zulip.com');
    const queue = await openQueue('aaron@zulip.com');
    expectSuccess(await pushRegister('aaron@zulip.com', { device_id: deviceId, ...appRegistration(), bouncer_public_key: 'b2xkLWtleQ==' }));
    const events = await queue.drain();
    expect(events[events.length - 1]).toEqual({
      type: 'device',
      op: 'update',
      device_id: deviceId,
      push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY',
    });
    expect((await devicesOf('aaron@zulip.com'))[deviceId]).toMatchObject({
      push_token_id: null,
      push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY',
    });
    const registration = appRegistration();
    expectSuccess(await pushRegister('aaron@zulip.com', { device_id: deviceId, ...registration }));
    expect((await devicesOf('aaron@zulip.com'))[deviceId]).toMatchObject({
      push_token_id: registration.token_id,
      pending_push_token_id: null,
      push_registration_error_code: null,
    });
  });

  it('retries the registration when the bouncer is down', async () => {
    const deviceId = await newDevice('desdemona@zulip.com');
    await registeredDevice('desdemona@zulip.com');
    await failBouncerRequests(1);
    const registration = appRegistration();
    expectSuccess(await pushRegister('desdemona@zulip.com', { device_id: deviceId, ...registration }));
    expect((await devicesOf('desdemona@zulip.com'))[deviceId]).toMatchObject({
      push_token_id: registration.token_id,
      pending_push_token_id: null,
    });
    const statuses = (await bouncerState()).requests.filter((r) => r.endpoint === 'push/e2ee/register').map((r) => r.status);
    expect(statuses.slice(-2)).toEqual([503, 200]);
  });

  it('refuses a second registration while one is on its way to the bouncer', async () => {
    const deviceId = await newDevice('iago@zulip.com');
    holdJobs();
    expectSuccess(await pushRegister('iago@zulip.com', { device_id: deviceId, ...appRegistration() }, { settleJobs: false }));
    expectError(
      await pushRegister('iago@zulip.com', { device_id: deviceId, ...appRegistration() }, { settleJobs: false }),
      'A registration for the device already in progress.',
    );
    releaseJobs();
    await settleJobs();
  });
});

describe('POST /mobile_push/register and its job, racing', () => {
  afterEach(() => resetClock());

  it('completes a registration whose key was rotated while it was on its way to the bouncer', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    const registration = appRegistration();
    holdJobs();
    expectSuccess(await pushRegister('hamlet@zulip.com', { device_id: deviceId, ...registration }, { settleJobs: false }));
    const rotated = appRegistration({ pushKeyId: 9 });
    expectSuccess(
      await pushRegister('hamlet@zulip.com', { device_id: deviceId, push_key: rotated.push_key, push_key_id: 9 }, { settleJobs: false }),
    );
    await settleJobs();
    expect((await devicesOf('hamlet@zulip.com'))[deviceId]).toMatchObject({
      push_key_id: 9,
      push_token_id: registration.token_id,
      pending_push_token_id: null,
    });
  });

  it('lets a device register again once a pending registration is older than its job can take', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    holdJobs();
    expectSuccess(await pushRegister('hamlet@zulip.com', { device_id: deviceId, ...appRegistration() }, { settleJobs: false }));
    advanceClock(11 * 60 * 1000);
    const again = appRegistration();
    expectSuccess(await pushRegister('hamlet@zulip.com', { device_id: deviceId, ...again }, { settleJobs: false }));
    await settleJobs();
    expect((await devicesOf('hamlet@zulip.com'))[deviceId]).toMatchObject({ push_token_id: again.token_id, pending_push_token_id: null });
  });
});

describe('POST /mobile_push/register refusals', () => {
  const refused = async (as: string, params: Record<string, unknown>, msg: string, code = 'BAD_REQUEST') => {
    const queue = await openQueue(as);
    const before = await devicesOf(as);
    expectError(await pushRegister(as, params), msg, 400, code);
    expect(await devicesOf(as)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  };

  it('refuses a device that is not the caller’s', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    await refused('cordelia@zulip.com', { device_id: deviceId, ...appRegistration() }, 'Invalid device ID');
    await refused('cordelia@zulip.com', { device_id: 999999, ...appRegistration() }, 'Invalid device ID');
  });

  it('refuses bots', async () => {
    expectError(
      await pushRegister('default-bot@zulip.com', { device_id: 1, ...appRegistration() }),
      'This endpoint does not accept bot requests.',
    );
  });

  it('needs all the push key fields, all the token fields, or both', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    const { push_key, token_id, token_kind, bouncer_public_key } = appRegistration();
    const msg = 'Missing parameters: must provide either all push key fields, all token fields, or both.';
    await refused('hamlet@zulip.com', { device_id: deviceId }, msg);
    await refused('hamlet@zulip.com', { device_id: deviceId, push_key }, msg);
    await refused('hamlet@zulip.com', { device_id: deviceId, token_id, token_kind, bouncer_public_key }, msg);
  });

  it('refuses to rotate a key or a token of a device that was never registered', async () => {
    const deviceId = await newDevice('hamlet@zulip.com');
    const { push_key, push_key_id, ...tokenFields } = appRegistration();
    await refused('hamlet@zulip.com', { device_id: deviceId, push_key, push_key_id }, 'No push registration exists to rotate key for.');
    await refused('hamlet@zulip.com', { device_id: deviceId, ...tokenFields }, 'No push registration exists to rotate token for.');
  });

  it.each([
    ['not base64', 'not base64!'],
    ['another cryptosystem', Buffer.concat([Buffer.from([0x32]), Buffer.alloc(32, 1)]).toString('base64')],
    ['a short key', Buffer.concat([Buffer.from([0x31]), Buffer.alloc(16, 1)]).toString('base64')],
    ['URL-safe base64', Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 0xfb)]).toString('base64url')],
  ])('refuses a push key that is %s', async (_case, pushKey) => {
    const deviceId = await newDevice('othello@zulip.com');
    await refused('othello@zulip.com', { device_id: deviceId, ...appRegistration(), push_key: pushKey }, 'Invalid `push_key`');
  });

  it('refuses a token id that is not base64', async () => {
    const deviceId = await newDevice('othello@zulip.com');
    await refused('othello@zulip.com', { device_id: deviceId, ...appRegistration(), token_id: '%%%' }, '`token_id` is not Base64 encoded');
  });

  it('checks each parameter as upstream does', async () => {
    const deviceId = await newDevice('othello@zulip.com');
    await refused(
      'othello@zulip.com',
      { device_id: deviceId, ...appRegistration(), token_kind: 'gcm' },
      'Invalid token_kind: Value error, Not in the list of possible values',
    );
    await refused('othello@zulip.com', { device_id: deviceId, ...appRegistration(), push_key_id: 2 ** 32 }, 'push_key_id is too large');
    await refused('othello@zulip.com', { device_id: deviceId, ...appRegistration(), push_key_id: -1 }, 'push_key_id is too small');
    await refused('othello@zulip.com', { device_id: deviceId, ...appRegistration(), push_key_id: 'abc' }, 'push_key_id is not valid JSON');
    await refused('othello@zulip.com', { device_id: 'abc', ...appRegistration() }, 'device_id is not valid JSON');
  });
});
