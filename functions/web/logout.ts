// POST /accounts/logout/ (upstream's path): ends the session (the log-out button of every page) and goes to the login page.
import { logOut } from '../../lib/actions/way-in/web-sessions';
import { SESSION_COOKIE } from '../../lib/models/session';
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async ({ session, cookie }) => {
  if (session) await logOut(session);
  return redirectTo('/login/', [cookie(SESSION_COOKIE, '', 0)]);
});
