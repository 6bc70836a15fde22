// Password reset by email (upstream's /accounts/password/reset/ flow: ZulipPasswordResetForm and
// Django's PasswordResetConfirmView): asking for a reset sends an email to the address given,
// whether or not it names an account (the page never tells which); for an active account the
// email holds a one-time link, which works until it is used, it expires, or the password changes.
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { RateLimitedError } from '../../errors';
import { escapeHtml } from '../../models/html';
import { ConfirmationLinkError, generateConfirmationKey, type PasswordResetAccess } from '../../models/invite';
import { realmUrl, type Realm } from '../../models/realm';
import { isStrongEnoughPassword, WEAK_PASSWORD, type User } from '../../models/user';
import { hashPassword, fingerprintOf } from '../../passwords';
import { sendEmail } from '../../store/emails';
import * as passwordResetsStore from '../../store/password-resets';
import * as passwordsStore from '../../store/passwords';
import * as sessionsStore from '../../store/sessions';
import * as usersStore from '../../store/users';
import { accessPasswordResetLink } from '../../access/way-in';
import { admitAttempt } from './rate-limits';
import { LostRaceError, retryLostRaces } from '../retry';

/**
 * GET and POST /accounts/password/reset/<key>/: the account a reset link names at `realm`
 * (accessPasswordResetLink: ConfirmationLinkError when the link does not work). Reads only.
 */
export const readPasswordResetLink = (realm: Realm, resetKey: string): Promise<PasswordResetAccess> =>
  accessPasswordResetLink(realm, resetKey);

/** How long a reset link works: Django's PASSWORD_RESET_TIMEOUT, which upstream keeps (3 days). */
export const PASSWORD_RESET_LINK_VALID_SECONDS = 3 * 24 * 60 * 60;

/** Django's SetPasswordForm text for two different passwords. */
const PASSWORD_MISMATCH = 'The two password fields didn’t match.';

/** The link of a reset key at its organization. */
const resetLink = (realm: Realm, resetKey: string): string => `${realmUrl(realm)}/accounts/password/reset/${resetKey}/`;

/** Upstream's zerver/emails/password_reset: the link for an active account, what to do otherwise. */
const passwordResetEmail = (
  realm: Realm,
  email: string,
  outcome: { link: string } | { deactivated: boolean },
): { subject: string; text: string; html: string } => {
  const url = realmUrl(realm);
  const intro = `Somebody (possibly you) requested a new password for the Zulip account ${email} on ${url}.`;
  const body =
    'link' in outcome
      ? ['Click the link below to reset your password.', outcome.link]
      : outcome.deactivated
        ? [
            `You previously had an account on ${url}, but it has been deactivated. You can contact an organization administrator to reactivate your account.`,
          ]
        : ['You do not have an account in that Zulip organization.'];
  const ending = "If you didn't request a password reset, you can safely ignore this email.";
  return {
    subject: `Password reset request for ${realm.name}`,
    text: [intro, '', ...body, '', ending, ''].join('\n'),
    html: [
      `<p>${escapeHtml(intro)}</p>`,
      'link' in outcome
        ? `<p>${escapeHtml(body[0])}</p>\n<p><a href="${escapeHtml(outcome.link)}">Reset password</a></p>`
        : `<p>${escapeHtml(body[0])}</p>`,
      `<p>${escapeHtml(ending)}</p>`,
    ].join('\n'),
  };
};

/**
 * A password reset asked for `email` at `realm` (upstream's ZulipPasswordResetForm.save): under
 * the address's limit (upstream's password_reset_form_by_email; past it nothing is sent and the
 * asker is told nothing different), an email to the address: for an active human account of the
 * organization, a new one-time link (its key item, naming the account and the password it
 * replaces, valid PASSWORD_RESET_LINK_VALID_SECONDS); for a deactivated one, whom to ask; for no
 * account, that there is none. Writes the attempt and the link's key; emits no event.
 */
export const doRequestPasswordReset = async (realm: Realm, email: string): Promise<void> => {
  try {
    await admitAttempt('password_reset_form_by_email', email.toLowerCase(), config.passwordResetEmailLimit());
  } catch (error) {
    if (error instanceof RateLimitedError) return;
    throw error;
  }
  const user = await usersStore.getByEmail(realm.id, email);
  const human = user && !user.isBot ? user : undefined;
  if (!human?.isActive) {
    await sendEmail({ to: [email], ...passwordResetEmail(realm, email, { deactivated: human !== undefined }) });
    return;
  }
  const now = nowSeconds();
  const resetKey = generateConfirmationKey();
  await passwordResetsStore.putPasswordResetKey({
    resetKey,
    realmId: realm.id,
    userId: human.id,
    passwordFingerprint: fingerprintOf(await passwordsStore.getPasswordHash(human.id)),
    dateCreated: now,
    validUntil: now + PASSWORD_RESET_LINK_VALID_SECONDS,
  });
  await sendEmail({ to: [human.email], ...passwordResetEmail(realm, human.email, { link: resetLink(realm, resetKey) }) });
};

/**
 * Sets a new password from an accessed reset link (Django's SetPasswordForm with upstream's
 * strength check): both fields given, equal, and strong enough (isStrongEnoughPassword), else
 * the form's errors and nothing is written. Then the new hash and the removal of the link in one
 * transaction, conditional on the password being the one the link was issued against: a link
 * used or outdated meanwhile is ConfirmationLinkError('expired'). Then ends the account's web
 * sessions (as Django's, which a password change invalidates). Emits no event.
 */
export const checkResetPassword = async (
  realm: Realm,
  access: PasswordResetAccess,
  form: { newPassword1: string; newPassword2: string },
): Promise<{ user: User } | { errors: string[] }> => {
  const errors: string[] = [];
  if (form.newPassword1 === '' || form.newPassword2 === '') errors.push('This field is required.');
  else if (form.newPassword1 !== form.newPassword2) errors.push(PASSWORD_MISMATCH);
  else if (!isStrongEnoughPassword(form.newPassword1)) errors.push(WEAK_PASSWORD);
  if (errors.length > 0) return { errors };
  const hash = await hashPassword(form.newPassword1);
  await retryLostRaces(async () => {
    // The link's checks again, on what is stored now, then the write that re-checks them.
    const { user } = await accessPasswordResetLink(realm, access.resetKey);
    const current = await passwordsStore.getPasswordHash(user.id);
    const written = await passwordResetsStore.resetPasswordWithKey(access.resetKey, user.id, current, hash);
    if (written === 'conflict') throw new LostRaceError();
    if (written !== 'written') throw new ConfirmationLinkError('expired');
  });
  // Django's sessions end with the password they were started with: whoever knew the old one is signed out.
  await sessionsStore.deleteSessionsOfUser(access.user.id);
  return { user: access.user };
};
