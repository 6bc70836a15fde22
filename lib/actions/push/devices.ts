import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { ClientDevice } from '../../models/client-device';
import type { User } from '../../models/user';
import * as clientDevicesStore from '../../store/client-devices';

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
