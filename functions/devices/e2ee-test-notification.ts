// POST /mobile_push/e2ee/test_notification: an end-to-end encrypted test notification to one or all of the caller's devices.
import { checkSendTestNotification } from '../../lib/actions/push/notifications';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const send = checkSendTestNotification.authorize(user);
  const { device_id } = params({ device_id: json(int).optional() });
  await send(device_id);
  return {};
});
