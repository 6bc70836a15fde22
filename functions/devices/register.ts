// POST /register_client_device: the mobile app registers itself before asking for push notifications.
import { doRegisterClientDevice } from '../../lib/actions/push/devices';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => {
  const device = await doRegisterClientDevice(user);
  return { device_id: device.deviceId };
});
