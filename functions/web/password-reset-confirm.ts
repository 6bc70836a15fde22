// GET /accounts/password/reset/<key>/: the form of a reset link (upstream's reset_confirm: the
// new password twice); POST: sets it and says where to sign in. A link that does not work (used,
// expired, mistyped) gets a page that says so and how to get a new one.
import { checkResetPassword, PASSWORD_RESET_LINK_VALID_SECONDS, readPasswordResetLink } from '../../lib/actions/way-in/password-reset';
import { ConfirmationLinkError, type PasswordResetAccess } from '../../lib/models/invite';
import { rawString } from '../../lib/http/params';
import { html } from '../../lib/web/html';
import { box, postForm } from '../../lib/web/page';
import { messagePage, pageHandler, type PageContext } from '../../lib/web/page-handler';

const resetConfirmForm = (ctx: PageContext, access: PasswordResetAccess, errors: string[] = []) =>
  ctx.page(
    errors.length > 0 ? 400 : 200,
    'Reset your password',
    box(
      'Reset your password',
      html`<p>Choose a new password for <strong id="reset_email">${access.user.email}</strong> in ${ctx.realm.name}.</p>
        ${postForm(ctx.form, {
          action: `/accounts/password/reset/${access.resetKey}/`,
          name: 'password_reset',
          errors,
          submit: 'Reset password',
          fields: [
            {
              name: 'new_password1',
              label: 'Password',
              type: 'password',
              autocomplete: 'new-password',
              autofocus: true,
              hint: 'At least 6 characters.',
            },
            { name: 'new_password2', label: 'Confirm password', type: 'password', autocomplete: 'new-password' },
          ],
        })}`,
    ),
  );

/** Upstream's text for a link that does not work, and how to get a new one. */
const invalidLinkPage = (realmName: string) =>
  messagePage(404, {
    title: 'Reset your password',
    heading: 'Reset your password',
    realmName,
    paragraphs: [
      'Sorry, the link you provided is invalid or has already been used.',
      html`A password reset link works once, for ${PASSWORD_RESET_LINK_VALID_SECONDS / 86400} days.
        <a href="/accounts/password/reset/">Ask for a new link</a> or <a href="/login/">log in</a>.`,
    ],
  });

export const handler = pageHandler(async (ctx) => {
  const key = ctx.event.pathParameters?.reset_key ?? '';
  try {
    const access = await readPasswordResetLink(ctx.realm, key);
    if (ctx.event.requestContext.http.method !== 'POST') return resetConfirmForm(ctx, access);
    const form = ctx.params({ new_password1: rawString().default(''), new_password2: rawString().default('') });
    const reset = await checkResetPassword(ctx.realm, access, { newPassword1: form.new_password1, newPassword2: form.new_password2 });
    if ('errors' in reset) return resetConfirmForm(ctx, access, reset.errors);
    return ctx.page(
      200,
      'Password reset',
      box(
        'Password reset',
        html`<p>
            Your password has been reset. You can now log in to ${ctx.realm.name} as <strong>${reset.user.email}</strong> with your new
            password.
          </p>
          <div class="actions"><a class="button" id="login_link" href="/login/">Log in</a></div>`,
      ),
    );
  } catch (error) {
    if (error instanceof ConfirmationLinkError) return invalidLinkPage(ctx.realm.name);
    throw error;
  }
});
