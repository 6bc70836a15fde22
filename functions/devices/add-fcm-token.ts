// POST /users/me/android_gcm_reg_id: the app registers its FCM token for legacy (unencrypted) push notifications.
import { checkAddLegacyToken } from '../../lib/actions/push/legacy';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const add = checkAddLegacyToken.authorize(user);
  const { token } = params({ token: rawString() });
  await add('fcm', token);
  return {};
});
