// GET /register/: the sign-up form of an organization that does not require invitations (upstream's
// accounts_home): the email to confirm. POST: emails a confirmation link (lib/actions/way-in/sign-up.ts),
// then says to check the email. An organization that requires invitations says so instead.
import { doRequestSignUp, INVITATION_REQUIRED } from '../../lib/actions/way-in/sign-up';
import { rawString } from '../../lib/http/params';
import { realmProperty } from '../../lib/models/realm';
import { html } from '../../lib/web/html';
import { box, postForm } from '../../lib/web/page';
import { pageHandler, type PageContext } from '../../lib/web/page-handler';

const signUpForm = (ctx: PageContext, opts: { email?: string; errors?: string[] } = {}) =>
  ctx.page(
    opts.errors ? 400 : 200,
    `Sign up for ${ctx.realm.name}`,
    box(
      `Sign up for ${ctx.realm.name}`,
      realmProperty(ctx.realm, 'invite_required')
        ? html`<p id="invite_required">${INVITATION_REQUIRED}</p>
            <p class="below-form"><a href="/login/">Log in</a></p>`
        : html`${postForm(ctx.form, {
              action: '/register/',
              name: 'email_form',
              errors: opts.errors,
              submit: 'Sign up',
              fields: [
                { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: opts.email, maxlength: 254, autofocus: true },
              ],
            })}
            <p class="below-form">Already have an account? <a href="/login/">Log in</a></p>`,
    ),
  );

export const handler = pageHandler(async (ctx) => {
  if (ctx.event.requestContext.http.method !== 'POST') return signUpForm(ctx);
  const email = ctx.params({ email: rawString().default('') }).email.trim();
  const outcome = await doRequestSignUp(ctx.realm, email);
  if ('error' in outcome) return signUpForm(ctx, { email, errors: [outcome.error] });
  return ctx.page(
    200,
    'Check your email',
    box(
      'Confirm your email address',
      html`<p>To complete your sign-up, check your email account (<strong id="signup_email">${email}</strong>) for a confirmation email.</p>
        <p>Didn't get it? Check your spam folder, or <a href="/register/">try again</a>.</p>`,
    ),
  );
});
