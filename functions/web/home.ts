// GET /: the organization's address. Signed out: the login page, as upstream's. Signed in: the web
// app (lib/web/app-shell.ts), which the desktop app also loads.
import { appShell } from '../../lib/web/app-shell';
import { redirectTo } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async (ctx) =>
  ctx.session ? appShell({ csrfToken: ctx.form.csrfToken, realmName: ctx.realm.name }) : redirectTo('/login/'),
);
