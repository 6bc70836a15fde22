// GET /accounts/password/reset/: upstream's "Reset your password" form, asking the email; POST:
// sends the reset email (lib/actions/way-in/password-reset.ts) and answers the same "check your email"
// page whether or not the address names an account.
import { doRequestPasswordReset } from '../../lib/actions/way-in/password-reset';
import { rawString } from '../../lib/http/params';
import { isValidEmailAddress } from '../../lib/models/invite';
import { html } from '../../lib/web/html';
import { box, postForm } from '../../lib/web/page';
import { pageHandler, type PageContext } from '../../lib/web/page-handler';

const resetForm = (ctx: PageContext, opts: { email?: string; errors?: string[] } = {}) =>
  ctx.page(
    opts.errors ? 400 : 200,
    'Reset your password',
    box(
      'Reset your password',
      html`<p>Forgot your password? No problem, we'll send a link to reset your password to the email you signed up with.</p>
        ${postForm(ctx.form, {
          action: '/accounts/password/reset/',
          name: 'password_reset',
          errors: opts.errors,
          submit: 'Send reset link',
          fields: [
            { name: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: opts.email, maxlength: 254, autofocus: true },
          ],
        })}
        <p class="below-form"><a href="/login/">Back to login</a></p>`,
    ),
  );

export const handler = pageHandler(async (ctx) => {
  if (ctx.event.requestContext.http.method !== 'POST') return resetForm(ctx);
  const email = ctx.params({ email: rawString().default('') }).email.trim();
  if (email === '') return resetForm(ctx, { email, errors: ['This field is required.'] });
  if (!isValidEmailAddress(email)) return resetForm(ctx, { email, errors: ['Enter a valid email address.'] });
  await doRequestPasswordReset(ctx.realm, email);
  return ctx.page(
    200,
    'Check your email',
    box(
      'Check your email',
      html`<p>
          If <strong id="reset_email">${email}</strong> is the email of an account in ${ctx.realm.name}, we have sent it a link to reset the
          password.
        </p>
        <p>
          Check your email in order to finish the process. Didn't get it? Check your spam folder, or
          <a href="/accounts/password/reset/">ask for a new link</a>.
        </p>
        <p class="below-form"><a href="/login/">Back to login</a></p>`,
    ),
  );
});
