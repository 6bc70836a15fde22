// POST /logout/: ends the session (the log-out button of every page) and goes to the login page.
import { logOut } from '../../lib/actions/web-sessions';
import { SESSION_COOKIE } from '../../lib/models/session';
import { clearCookie } from '../../lib/web/cookies';
import { seeOther } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async ({ session }) => {
  if (session) await logOut(session);
  return seeOther('/login/', [clearCookie(SESSION_COOKIE)]);
});
