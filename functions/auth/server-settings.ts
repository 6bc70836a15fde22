// GET /server_settings: what a client needs before it signs in. No authentication: credentials,
// if sent, are not checked.
import { serverSettings } from '../../lib/actions/way-in/server-settings';
import { publicApiHandler } from '../../lib/http/api-handler';
import { realmForHost } from '../../lib/http/auth';

export const handler = publicApiHandler(async ({ event }) => {
  const realm = await realmForHost(event.headers?.host);
  return serverSettings(realm, event.headers?.host, event.headers?.['user-agent']);
});
