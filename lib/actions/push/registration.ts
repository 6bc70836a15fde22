// POST /mobile_push/register: a device's end-to-end push registration, written here and forwarded
// to the push bouncer by the `push` job (upstream's zerver/lib/push_registration.py).
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent } from '../../events/send';
import type { ClientDevice, DevicePush } from '../../models/client-device';
import type { DeviceEvent } from '../../models/event';
import { canonicalTokenId, parsePushKey } from '../../models/push-notifications';
import type { User } from '../../models/user';
import * as clientDevicesStore from '../../store/client-devices';
import { startJob } from '../../store/jobs';
import { BouncerRefusedError, BouncerRetryLaterError, sendToBouncer } from '../../store/push-bouncer';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import type { PushJob } from '../../models/push-job';
import { forHumans } from '../requiring';
import { LostRaceError, retryLostRaces } from '../retry';
import { sendForRealm } from './bouncer';

// ---------------------------------------------------------------------------------------------
// POST /mobile_push/register

/** What POST /mobile_push/register was given besides the device (each optional: see checkRegisterPushDevice). */
export type PushRegistrationParams = {
  pushKey?: string;
  pushKeyId?: number;
  tokenKind?: 'fcm' | 'apns';
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
};

/**
 * How long a registration counts as on its way to the bouncer: past the push job's attempts (Lambda
 * retries a failed run after about 1 and 2 more minutes, each run up to 60 s).
 */
const PENDING_REGISTRATION_SECONDS = 10 * 60;

export const pushServiceNotConfigured = () =>
  new ApiError('Server is not configured to use push notification service.', { code: ErrorCode.PUSH_SERVICE_NOT_CONFIGURED });

const checkPushKey = (pushKey: string): string => {
  const bytes = parsePushKey(pushKey);
  if (!bytes) throw new BadRequestError('Invalid `push_key`');
  return bytes.toString('base64');
};

const checkTokenId = (tokenId: string): string => {
  const canonical = canonicalTokenId(tokenId);
  if (canonical === undefined) throw new BadRequestError('`token_id` is not Base64 encoded');
  return canonical;
};

/** Writes a device's new push registration and tells the owner's clients what changed. */
const writeDevicePush = async (
  user: User,
  device: ClientDevice,
  next: DevicePush,
  changed: Omit<Extract<DeviceEvent, { op: 'update' }>, 'type' | 'op' | 'device_id'>,
): Promise<boolean> => {
  if (!(await clientDevicesStore.updateDevicePush(device, next))) return false;
  await sendEvent(user.realmId, { type: 'device', op: 'update', device_id: device.deviceId, ...changed } satisfies DeviceEvent, {
    users: [user.id],
  });
  return true;
};

/**
 * POST /mobile_push/register (upstream's register_push_device): human users only; push must be
 * configured (else PUSH_SERVICE_NOT_CONFIGURED) and the device the caller's ("Invalid device ID").
 * With the push key fields only, rotates the key of a registered device; with the token fields
 * only, rotates its token; with both, registers the device (again). A token goes to the bouncer
 * through the `push` job, so the request does not wait for it: the device's pending token is set
 * now, and the job's outcome comes as another `device/update` event. Writes the device's push
 * registration (conditionally: of two concurrent registrations one is refused as in progress) and
 * sends `device/update` with the fields that changed to the caller's clients. Repeating a
 * registration that is in place changes nothing.
 */
export const checkRegisterPushDevice = forHumans(async (user: User, deviceId: number, p: PushRegistrationParams): Promise<void> => {
  if (!config.pushBouncer()) throw pushServiceNotConfigured();
  const device = await clientDevicesStore.getClientDevice(user.id, deviceId, { consistent: true });
  if (!device) throw new BadRequestError('Invalid device ID');
  const keyFields = p.pushKey !== undefined && p.pushKeyId !== undefined;
  const tokenFields =
    p.bouncerPublicKey !== undefined && p.encryptedPushRegistration !== undefined && p.tokenId !== undefined && p.tokenKind !== undefined;
  if (!keyFields && !tokenFields)
    throw new BadRequestError('Missing parameters: must provide either all push key fields, all token fields, or both.');
  const push = device.push ?? {};
  const inProgress = () => new BadRequestError('A registration for the device already in progress.');

  if (keyFields && !tokenFields) {
    if (push.keyId === undefined) throw new BadRequestError('No push registration exists to rotate key for.');
    const key = checkPushKey(p.pushKey!);
    if (push.keyId === p.pushKeyId && push.key === key) return;
    if (!(await writeDevicePush(user, device, { ...push, key, keyId: p.pushKeyId! }, { push_key_id: p.pushKeyId! }))) throw inProgress();
    return;
  }

  // Another registration is on its way to the bouncer: a second one could race it there. One
  // pending for longer than its job can take (its start failed, or every attempt) no longer is.
  const now = nowSeconds();
  if (push.errorCode === undefined && push.pendingTokenId !== undefined && (push.tokenUpdatedAt ?? 0) > now - PENDING_REGISTRATION_SECONDS)
    throw inProgress();
  const tokenId = checkTokenId(p.tokenId!);
  let written: boolean;
  if (!keyFields) {
    if (push.keyId === undefined) throw new BadRequestError('No push registration exists to rotate token for.');
    if (push.errorCode === undefined && push.tokenId === tokenId) return;
    written = await writeDevicePush(
      user,
      device,
      { ...push, pendingTokenId: tokenId, tokenUpdatedAt: now, errorCode: undefined },
      { pending_push_token_id: tokenId, push_token_last_updated_timestamp: now, push_registration_error_code: null },
    );
  } else {
    const key = checkPushKey(p.pushKey!);
    if (
      push.errorCode === undefined &&
      push.keyId === p.pushKeyId &&
      push.key === key &&
      push.tokenId === tokenId &&
      push.tokenKind === p.tokenKind
    )
      return;
    written = await writeDevicePush(
      user,
      device,
      { ...push, key, keyId: p.pushKeyId!, tokenKind: p.tokenKind!, pendingTokenId: tokenId, tokenUpdatedAt: now, errorCode: undefined },
      {
        push_key_id: p.pushKeyId!,
        pending_push_token_id: tokenId,
        push_token_last_updated_timestamp: now,
        push_registration_error_code: null,
      },
    );
  }
  if (!written) throw inProgress();
  await startJob('push', {
    kind: 'register',
    realmId: user.realmId,
    userId: user.id,
    deviceId,
    tokenId,
    bouncerPublicKey: p.bouncerPublicKey!,
    encryptedPushRegistration: p.encryptedPushRegistration!,
  } satisfies PushJob);
});

/**
 * The `push` job's registration (upstream's handle_register_push_device_to_bouncer): forwards the
 * device's encrypted registration to the bouncer (POST remotes/push/e2ee/register). On success the
 * pending token becomes the device's token; when the bouncer refuses the registration itself
 * (INVALID_BOUNCER_PUBLIC_KEY, REQUEST_EXPIRED, an invalid encrypted registration) the device
 * records the error code; either way `device/update` tells the owner's clients. A bouncer that is
 * down, or refuses this server (its administrator must act), fails the job, to be retried. Nothing
 * when the device is gone or registers another token by now.
 */
export const doRegisterDeviceWithBouncer = async (job: Extract<PushJob, { kind: 'register' }>): Promise<void> => {
  if (!config.pushBouncer()) return;
  const [realm, user, device] = await Promise.all([
    realmsStore.get(job.realmId),
    usersStore.get(job.realmId, job.userId),
    clientDevicesStore.getClientDevice(job.userId, job.deviceId, { consistent: true }),
  ]);
  if (!realm || !user || !device?.push || device.push.pendingTokenId !== job.tokenId) return;
  try {
    await sendForRealm(realm, (realmUuid) =>
      sendToBouncer('push/e2ee/register', {
        form: {
          realm_uuid: realmUuid,
          token_id: job.tokenId,
          encrypted_push_registration: job.encryptedPushRegistration,
          bouncer_public_key: job.bouncerPublicKey,
        },
      }),
    );
  } catch (error) {
    const retryLater =
      error instanceof BouncerRetryLaterError ||
      !(error instanceof BouncerRefusedError) ||
      error.code === undefined ||
      ['MISSING_REMOTE_REALM', 'INVALID_ZULIP_SERVER', 'PUSH_NOTIFICATIONS_DISALLOWED'].includes(error.code);
    if (retryLater) throw error;
    const code = (error as BouncerRefusedError).code!;
    await settleRegistration(job, user, (push) => [{ ...push, errorCode: code }, { push_registration_error_code: code }]);
    return;
  }
  await settleRegistration(job, user, (push) => [
    { ...push, tokenId: job.tokenId, pendingTokenId: undefined, errorCode: undefined },
    { push_token_id: job.tokenId, pending_push_token_id: null },
  ]);
};

/**
 * Records a registration's outcome on its device, unless the device is gone or registers another
 * token by now; read again and retried when a concurrent change (a key rotation) came first.
 */
const settleRegistration = (
  job: Extract<PushJob, { kind: 'register' }>,
  user: User,
  outcome: (push: DevicePush) => [DevicePush, Omit<Extract<DeviceEvent, { op: 'update' }>, 'type' | 'op' | 'device_id'>],
): Promise<void> =>
  retryLostRaces(async () => {
    const device = await clientDevicesStore.getClientDevice(job.userId, job.deviceId, { consistent: true });
    if (!device?.push || device.push.pendingTokenId !== job.tokenId) return;
    const [next, changed] = outcome(device.push);
    if (!(await writeDevicePush(user, device, next, changed))) throw new LostRaceError();
  });
