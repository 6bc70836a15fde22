// GET /accounts/: the signed-in person's account: who they are, and the form that shows their API
// key after they re-enter their password (POST /accounts/api_key/). Signed out: the login page.
import { realmUrl } from '../../lib/models/realm';
import { accountPage } from '../../lib/web/account-page';
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async (ctx) => {
  if (!ctx.session) return redirectTo('/login/');
  return ctx.page(200, 'Account & privacy', accountPage(ctx.form, ctx.session.user, ctx.realm.name, realmUrl(ctx.realm)));
});
