// Register state "device": the caller's registered client devices, by id (feature level 468).
import { toApiClientDevice } from '../models/client-device';
import * as clientDevicesStore from '../store/client-devices';
import type { StateBuilder } from './registry';

export const devicesState: StateBuilder = async (ctx) => {
  if (!ctx.want('device')) return {};
  const devices = ctx.user ? await clientDevicesStore.listClientDevicesOfUser(ctx.user.id) : [];
  return { devices: Object.fromEntries(devices.map((d) => [String(d.deviceId), toApiClientDevice(d)])) };
};
