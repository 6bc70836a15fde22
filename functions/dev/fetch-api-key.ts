// POST /dev_fetch_api_key: development-only login, no authentication.
import { fetchDevApiKey } from '../../lib/actions/way-in/dev-login';
import { publicApiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = publicApiHandler(async ({ params, event }) => {
  const fetchKey = fetchDevApiKey.authorize();
  const { username } = params({ username: rawString() });
  const user = await fetchKey(username, event.headers?.host);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
});
