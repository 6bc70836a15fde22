import { ApiError, BadRequestError, ErrorCode } from '../errors';
import { sendEvent } from '../events/send';
import type { ClientDevice } from '../models/client-device';
import type { User } from '../models/user';
import * as clientDevicesStore from '../store/client-devices';

const invalidDevice = () => new BadRequestError('Invalid device ID');

/** Registers a logged-in device of the caller, then sends `device/add` to the caller's clients. */
export const doRegisterClientDevice = async (user: User, now = Date.now()): Promise<ClientDevice> => {
  const device = await clientDevicesStore.createClientDevice(user.id, Math.floor(now / 1000));
  await sendEvent(user.realmId, { type: 'device', op: 'add', device_id: device.deviceId }, { users: [user.id] });
  return device;
};

/**
 * Removes one of the caller's devices (another user's, or a missing one: "Invalid device ID";
 * the delete is conditional, so of two concurrent removals one succeeds), then sends
 * `device/remove` to the caller's clients.
 */
export const checkRemoveClientDevice = async (user: User, deviceId: number): Promise<void> => {
  if (!(await clientDevicesStore.deleteClientDevice(user.id, deviceId))) throw invalidDevice();
  await sendEvent(user.realmId, { type: 'device', op: 'remove', device_id: deviceId }, { users: [user.id] });
};

/**
 * POST /mobile_push/register. Registering for push notifications goes through upstream's push
 * bouncer, which this service does not reach (GET /server_settings says
 * push_notifications_enabled: false), so the answer is upstream's for a server whose push
 * notification service is not configured, whatever the device. Writes nothing.
 */
export const checkRegisterPushDevice = async (_user: User, _deviceId: number): Promise<never> => {
  throw new ApiError('Server is not configured to use push notification service.', { code: ErrorCode.PUSH_SERVICE_NOT_CONFIGURED });
};
