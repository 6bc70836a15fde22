// POST /remove_client_device: the mobile app removes its device record when the user logs out.
import { checkRemoveClientDevice } from '../../lib/actions/push/devices';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { device_id } = params({ device_id: json(int) });
  await checkRemoveClientDevice(user, device_id);
  return {};
});
