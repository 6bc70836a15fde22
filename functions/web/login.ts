// GET /login/: the login form; POST /login/: signs in with `username` (the email) and `password`
// (POST /fetch_api_key's checks and limits) and starts a session, then goes to the web app at /.
import { logInWithPassword, logOut } from '../../lib/actions/way-in/web-sessions';
import { rawString } from '../../lib/http/params';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS } from '../../lib/models/session';
import { isDevLoginAvailable } from '../../lib/web/dev-login';
import { html } from '../../lib/web/html';
import { box, postForm, redirectTo } from '../../lib/web/page';
import { pageHandler, type PageContext } from '../../lib/web/page-handler';
import { realmProperty, realmUrl } from '../../lib/models/realm';

const loginForm = (ctx: PageContext, opts: { username?: string; errors?: string[] } = {}) =>
  ctx.page(
    200,
    'Log in',
    box(
      'Log in to Zulip',
      html`<p class="realm-info"><strong>${ctx.realm.name}</strong><br /><span>${realmUrl(ctx.realm)}</span></p>
        ${postForm(ctx.form, {
          action: '/login/',
          name: 'login_form',
          errors: opts.errors,
          submit: 'Log in',
          fields: [
            {
              name: 'username',
              label: 'Email',
              type: 'email',
              autocomplete: 'username',
              value: opts.username,
              autofocus: opts.username === undefined,
            },
            {
              name: 'password',
              label: 'Password',
              type: 'password',
              autocomplete: 'current-password',
              autofocus: opts.username !== undefined,
            },
          ],
        })}
        <p class="below-form"><a href="/accounts/password/reset/">Forgot your password?</a></p>
        ${!realmProperty(ctx.realm, 'invite_required') && html`<p class="below-form">New here? <a href="/register/">Sign up</a></p>`}
        ${isDevLoginAvailable() && html`<p class="below-form">Development server: <a href="/devlogin/">log in as any user, without a password</a></p>`}`,
    ),
  );

export const handler = pageHandler(async (ctx) => {
  if (ctx.event.requestContext.http.method !== 'POST') return ctx.session ? redirectTo('/') : loginForm(ctx);
  const { username, password } = ctx.params({ username: rawString(), password: rawString() });
  const login = await logInWithPassword(ctx.realm, username, password, ctx.sourceIp);
  if ('formError' in login) return loginForm(ctx, { username, errors: [login.formError] });
  if (ctx.session) await logOut(ctx.session);
  return redirectTo('/', [ctx.cookie(SESSION_COOKIE, login.token, SESSION_LIFETIME_SECONDS)]);
});
