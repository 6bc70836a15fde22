// POST /fetch_api_key: password login, no authentication (an Authorization header is ignored).
import { fetchApiKeyWithPassword } from '../../lib/actions/password-auth';
import { publicApiHandler } from '../../lib/http/api-handler';
import { realmForHost } from '../../lib/http/auth';
import { rawString } from '../../lib/http/params';

export const handler = publicApiHandler(async ({ params, event }) => {
  const { username, password } = params({ username: rawString(), password: rawString() });
  const realm = await realmForHost(event.headers?.host);
  const user = await fetchApiKeyWithPassword(realm, username, password);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
});
