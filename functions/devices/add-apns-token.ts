// POST /users/me/apns_device_token: the app registers its APNs token (hex) and bundle id for legacy push notifications.
import { checkAddLegacyToken } from '../../lib/actions/push/legacy';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { APNS_APP_ID } from '../../lib/models/push-legacy';
import { matching } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const add = checkAddLegacyToken.authorize(user);
  // Upstream's order: appid, then token.
  const { appid, token } = params({ appid: rawString(matching(APNS_APP_ID)), token: rawString() });
  await add('apns', token, appid);
  return {};
});
