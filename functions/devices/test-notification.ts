// POST /mobile_push/test_notification: a legacy test notification to one or all of the caller's FCM/APNs tokens.
import { checkSendLegacyTestNotification } from '../../lib/actions/push/legacy';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const send = checkSendLegacyTestNotification.authorize(user);
  const { token } = params({ token: rawString().optional() });
  await send(token);
  return {};
});
