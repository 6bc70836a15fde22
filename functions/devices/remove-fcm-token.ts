// DELETE /users/me/android_gcm_reg_id: the app removes its FCM token (on logout).
import { checkRemoveLegacyToken } from '../../lib/actions/push/legacy';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const remove = checkRemoveLegacyToken.authorize(user);
  const { token } = params({ token: rawString() });
  await remove('fcm', token);
  return {};
});
