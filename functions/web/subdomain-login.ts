// GET /accounts/login/subdomain/<token>/ at an organization's host: takes a one-time sign-in handed
// over by a page at the service's root (the new-organization page, for its owner: upstream's
// redirect_and_log_into_subdomain), starts the session and shows where to go from here.
import { takeLoginHandoff } from '../../lib/actions/way-in/web-sessions';
import { realmUrl } from '../../lib/models/realm';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS } from '../../lib/models/session';
import { html } from '../../lib/web/html';
import { box } from '../../lib/web/page';
import { pageHandler } from '../../lib/web/page-handler';
import { welcomeContent } from '../../lib/web/signup-pages';

export const handler = pageHandler(async (ctx) => {
  const token = ctx.event.pathParameters?.token ?? '';
  const login = await takeLoginHandoff(ctx.realm, token);
  if (!login) {
    return ctx.page(
      404,
      'Invalid link',
      box(
        'Invalid link',
        html`<p>Sorry, the link you provided is invalid or has already been used.</p>
          <div class="actions"><a class="button" id="login_link" href="/login/">Log in to ${ctx.realm.name}</a></div>`,
      ),
    );
  }
  return ctx.page(
    200,
    `Welcome to ${ctx.realm.name}`,
    welcomeContent({
      heading: `Welcome to ${ctx.realm.name}`,
      fullName: login.user.fullName,
      email: login.user.email,
      realmName: ctx.realm.name,
      url: realmUrl(ctx.realm),
      signedIn: true,
    }),
    [ctx.cookie(SESSION_COOKIE, login.token, SESSION_LIFETIME_SECONDS)],
  );
});
