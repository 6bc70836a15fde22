// GET /devlogin/ (development mode only, as upstream's): the organization's accounts by role,
// each a button; POST /accounts/login/local/ (upstream's login-local, where those buttons post
// `direct_email`): starts the session the login page starts, for that account, then goes to `/`.
// Outside development mode both answer the 404 page of an unknown path.
import { logOut, startSession } from '../../lib/actions/way-in/web-sessions';
import { rawString } from '../../lib/http/params';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS } from '../../lib/models/session';
import { DEV_LOGIN_FIELD, developmentOnly, devLoginAccount, devLoginAccounts, devLoginPage } from '../../lib/web/dev-login';
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = developmentOnly(
  pageHandler(async (ctx) => {
    if (ctx.event.requestContext.http.method !== 'POST') return devLoginPage(ctx, await devLoginAccounts(ctx.realm));
    const { [DEV_LOGIN_FIELD]: email } = ctx.params({ [DEV_LOGIN_FIELD]: rawString() });
    const user = await devLoginAccount(ctx.realm, email);
    if (!user) {
      const error = `No active account ${email} in ${ctx.realm.name}.`;
      return devLoginPage(ctx, await devLoginAccounts(ctx.realm), [error], 400);
    }
    const token = await startSession(ctx.realm, user);
    if (ctx.session) await logOut(ctx.session);
    return redirectTo('/', [ctx.cookie(SESSION_COOKIE, token, SESSION_LIFETIME_SECONDS)]);
  }),
);
