// Push notification tests: point this test file's service at the local push bouncer that the
// global setup runs (scripts/local-bouncer.ts), as a server of its own (a fresh ZULIP_ORG_ID, so
// that files running at once do not see each other's requests), and read back what the bouncer
// was sent. Also a device's keys and tokens as the app makes them.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { handler as registerDevice } from '../../functions/devices/register';
import { handler as registerPush } from '../../functions/devices/register-push';
import { decryptPushPayload } from '../../lib/models/push-notifications';
import { LOCAL_BOUNCER_PUBLIC_KEY, type BouncerState } from '../../scripts/local-bouncer';
import { call, expectSuccess } from './api';

export const bouncerUrl = (): string => {
  const url = process.env.LOCAL_PUSH_BOUNCER_URL;
  if (!url) throw new Error('the global setup did not start the local push bouncer');
  return url;
};

/** Configures push notifications for this file's tests (beforeAll), and unconfigures them after. */
export const usePushBouncer = (): { orgId: () => string } => {
  let orgId = '';
  beforeAll(() => {
    orgId = randomUUID();
    Object.assign(process.env, { PUSH_BOUNCER_URL: bouncerUrl(), ZULIP_ORG_ID: orgId, ZULIP_ORG_KEY: randomBytes(32).toString('hex') });
  });
  afterAll(() => {
    delete process.env.PUSH_BOUNCER_URL;
    delete process.env.ZULIP_ORG_ID;
    delete process.env.ZULIP_ORG_KEY;
  });
  return { orgId: () => orgId };
};

/** What the bouncer holds from this file's server. */
export const bouncerState = async (): Promise<BouncerState> => {
  const state = (await (await fetch(`${bouncerUrl()}/__test/state`)).json()) as BouncerState;
  const mine = process.env.ZULIP_ORG_ID;
  return {
    servers: state.servers.filter((s) => s.id === mine),
    realms: state.realms.filter((r) => r.serverId === mine),
    devices: state.devices.filter((d) => d.serverId === mine),
    notifications: state.notifications.filter((n) => n.serverId === mine),
    legacyTokens: state.legacyTokens.filter((t) => t.serverId === mine),
    legacyNotifications: state.legacyNotifications.filter((n) => n.serverId === mine),
    legacyTests: state.legacyTests.filter((t) => t.serverId === mine),
    requests: state.requests.filter((r) => r.serverId === mine),
  };
};

/** Makes the bouncer answer this file's next `count` requests with 503, as when it is down. */
export const failBouncerRequests = async (count: number): Promise<void> => {
  await fetch(`${bouncerUrl()}/__test/fail?server=${process.env.ZULIP_ORG_ID}&count=${count}`, { method: 'POST' });
};

/** A device's registration as the app sends it to POST /mobile_push/register (all fields). */
export const appRegistration = (opts: { tokenKind?: 'fcm' | 'apns'; pushKeyId?: number; token?: string } = {}) => {
  const key = Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');
  const token = opts.token ?? randomBytes(16).toString('hex');
  return {
    push_key: key,
    push_key_id: opts.pushKeyId ?? 1000 + Math.floor(Math.random() * 1000),
    token_kind: opts.tokenKind ?? 'fcm',
    // The app's token id: the first 8 bytes of the token's SHA-256, base64.
    token_id: createHash('sha256').update(token).digest().subarray(0, 8).toString('base64'),
    bouncer_public_key: LOCAL_BOUNCER_PUBLIC_KEY,
    encrypted_push_registration: randomBytes(64).toString('base64'),
  };
};

/** Registers a device of `as` for push notifications as the app does; its registration. */
export const registerPhone = async (as: string, opts: { tokenKind?: 'fcm' | 'apns' } = {}) => {
  const { device_id } = expectSuccess(await call(registerDevice, { method: 'POST', path: '/register_client_device', as }));
  const registration = appRegistration(opts);
  expectSuccess(await call(registerPush, { method: 'POST', path: '/mobile_push/register', as, params: { device_id, ...registration } }));
  return registration;
};

/** The notifications the bouncer received since `since` (an earlier count), each push request with its payload decrypted. */
export const notificationsSince = async (since: number, keys: Record<string, string>) =>
  (await bouncerState()).notifications.slice(since).map((n) => ({
    realmUuid: n.realmUuid,
    pushRequests: n.pushRequests.map((r): Record<string, unknown> => {
      const payload = r.payload as { push_key_id: number; encrypted_data: string };
      return { ...r, decrypted: decryptPushPayload(payload.encrypted_data, keys[r.token_id as string]) };
    }),
  }));

export const notificationCount = async (): Promise<number> => (await bouncerState()).notifications.length;
