// POST /accounts/api_key/: the signed-in person's API key and their zuliprc, after they re-entered
// their password (upstream's "Your API key" dialog, without JavaScript). Signed out: the login page.
import { revealApiKey } from '../../lib/actions/way-in/web-sessions';
import { rawString } from '../../lib/http/params';
import { realmUrl } from '../../lib/models/realm';
import { accountPage, apiKeyPage } from '../../lib/web/account-page';
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async (ctx) => {
  if (!ctx.session) return redirectTo('/login/');
  const { password } = ctx.params({ password: rawString() });
  const { user } = ctx.session;
  const site = realmUrl(ctx.realm);
  const revealed = await revealApiKey(ctx.realm, user, password);
  if ('formError' in revealed)
    return ctx.page(200, 'Account & privacy', accountPage(ctx.form, user, ctx.realm.name, site, [revealed.formError]));
  return ctx.page(200, 'Your API key', apiKeyPage({ email: user.email, apiKey: revealed.apiKey, site }));
});
