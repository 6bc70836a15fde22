// GET /: the organization's address. Signed out: the login page, as upstream's. Signed in: the
// account page, until the web app is served here (it will be: the web app issue).
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async (ctx) => redirectTo(ctx.session ? '/accounts/' : '/login/'));
