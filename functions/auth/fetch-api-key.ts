// POST /fetch_api_key: password login, no authentication (an Authorization header is ignored).
import { fetchApiKeyWithPassword } from '../../lib/actions/way-in/password-login';
import { publicApiHandler } from '../../lib/http/api-handler';
import { realmForHost } from '../../lib/http/auth';
import { rawString } from '../../lib/http/params';

export const handler = publicApiHandler(async ({ params, event }) => {
  const { username, password } = params({ username: rawString(), password: rawString() });
  const realm = await realmForHost(event.headers?.host);
  // The address API Gateway saw the request come from: the password login limit counts per address.
  const user = await fetchApiKeyWithPassword(realm, username, password, event.requestContext.http.sourceIp);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
});
