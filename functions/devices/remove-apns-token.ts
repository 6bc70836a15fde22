// DELETE /users/me/apns_device_token: the app removes its APNs token (on logout).
import { checkRemoveLegacyToken } from '../../lib/actions/push/legacy';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const remove = checkRemoveLegacyToken.authorize(user);
  const { token } = params({ token: rawString() });
  await remove('apns', token);
  return {};
});
