// GET /join/<key>/: the sign-up form of an invitation (an email invitation's or a reusable
// link's); POST: creates the account, signs it in and shows where to go. A link that does not
// work gets upstream's page for it.
import { checkJoin, readJoinInvitation } from '../../lib/actions/way-in/join';
import { startSession } from '../../lib/actions/way-in/web-sessions';
import { rawString } from '../../lib/http/params';
import { ConfirmationLinkError, type InviteByKey } from '../../lib/models/invite';
import { realmUrl } from '../../lib/models/realm';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS } from '../../lib/models/session';
import { html } from '../../lib/web/html';
import { box, postForm, type Field } from '../../lib/web/page';
import { pageHandler, type PageContext } from '../../lib/web/page-handler';
import { confirmationLinkErrorPage, welcomeContent } from '../../lib/web/signup-pages';

/** Upstream's registration form: the email (fixed for an email invitation), the name, the password. */
const joinForm = (
  ctx: PageContext,
  key: string,
  invitation: InviteByKey,
  values: { email?: string; fullName?: string },
  errors: string[] = [],
) => {
  const fields: Field[] = [
    ...(invitation.kind === 'multiuse'
      ? [
          {
            name: 'email',
            label: 'Email',
            type: 'email' as const,
            autocomplete: 'email',
            value: values.email,
            maxlength: 254,
            autofocus: true,
          },
        ]
      : []),
    {
      name: 'full_name',
      label: 'Name',
      autocomplete: 'name',
      value: values.fullName,
      maxlength: 100,
      autofocus: invitation.kind === 'email',
    },
    { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 6 characters.' },
  ];
  return ctx.page(
    errors.length > 0 ? 400 : 200,
    'Sign up',
    box(
      `Sign up for ${ctx.realm.name}`,
      html`<p class="realm-info"><span>${realmUrl(ctx.realm)}</span></p>
        ${
          invitation.kind === 'email' &&
          html`<p>
            ${invitation.invite.referredBy === null ? 'You are signing up as' : 'You were invited as'}
            <strong id="invited_email">${invitation.invite.email}</strong>.
          </p>`
        }
        ${postForm(ctx.form, { action: `/join/${key}/`, name: 'registration', errors, submit: 'Sign up', fields })}`,
    ),
  );
};

export const handler = pageHandler(async (ctx) => {
  const key = ctx.event.pathParameters?.confirmation_key ?? '';
  let invitation: InviteByKey;
  try {
    invitation = await readJoinInvitation(ctx.realm, key);
  } catch (error) {
    if (error instanceof ConfirmationLinkError) return confirmationLinkErrorPage(error.problem, ctx.realm.name);
    throw error;
  }
  if (ctx.event.requestContext.http.method !== 'POST') return joinForm(ctx, key, invitation, {});
  const form = ctx.params({ email: rawString().default(''), full_name: rawString().default(''), password: rawString().default('') });
  const joined = await checkJoin(ctx.realm, invitation, { email: form.email, fullName: form.full_name, password: form.password });
  if ('errors' in joined) return joinForm(ctx, key, invitation, { email: form.email, fullName: form.full_name }, joined.errors);
  const token = await startSession(ctx.realm, joined.user);
  return ctx.page(
    200,
    'Welcome',
    welcomeContent({
      heading: `Welcome to ${ctx.realm.name}`,
      fullName: joined.user.fullName,
      email: joined.user.email,
      realmName: ctx.realm.name,
      url: realmUrl(ctx.realm),
      signedIn: true,
    }),
    [ctx.cookie(SESSION_COOKIE, token, SESSION_LIFETIME_SECONDS)],
  );
});
