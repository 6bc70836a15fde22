// GET /dev_list_users: development-only list of the accounts to log in as, no authentication.
import { listDevUsers } from '../../lib/actions/way-in/dev-login';
import { publicApiHandler } from '../../lib/http/api-handler';

export const handler = publicApiHandler(async ({ event }) => {
  const list = listDevUsers.authorize();
  return list(event.headers?.host);
});
