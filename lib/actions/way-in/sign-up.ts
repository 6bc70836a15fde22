// Signing up without an invitation (upstream's accounts_home and its registration confirmation):
// an organization that does not require invitations (invite_required off) lets anyone with an
// admitted address ask to join at /register/. The address is confirmed by email: the email holds a
// /join/<key>/ link to an email invitation nobody sent (upstream's PreregistrationUser without a
// referrer: referredBy null, which GET /invites does not list), and the join page then creates the
// account as for any email invitation (a member, with the default channels).
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { RateLimitedError } from '../../errors';
import { escapeHtml } from '../../models/html';
import { generateConfirmationKey, INVITE_AS, type EmailInvite } from '../../models/invite';
import { realmProperty, realmUrl, type Realm } from '../../models/realm';
import { allocateIds } from '../../store/common';
import { sendEmail } from '../../store/emails';
import * as invitesStore from '../../store/invites';
import { signUpEmailError } from './join';
import { admitAttempt } from './rate-limits';

/** How long a sign-up's confirmation link works: upstream's CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS (1 day). */
const SIGN_UP_LINK_VALID_SECONDS = 24 * 60 * 60;

/** Upstream's "You need an invitation to join this organization." for an organization that requires one. */
export const INVITATION_REQUIRED = 'You need an invitation to join this organization.';

/** Upstream's zerver/emails/confirm_registration, in short: the link that completes the sign-up. */
const confirmationEmail = (realm: Realm, link: string): { subject: string; text: string; html: string } => {
  const intro = `You recently signed up for ${realm.name} (${realmUrl(realm)}) with this email address.`;
  const action = 'Click the link below to complete your sign-up.';
  const ending = "If you didn't sign up, you can safely ignore this email.";
  return {
    subject: 'Activate your Zulip account',
    text: [intro, '', action, link, '', ending, ''].join('\n'),
    html: [
      `<p>${escapeHtml(intro)}</p>`,
      `<p>${escapeHtml(action)}</p>`,
      `<p><a href="${escapeHtml(link)}">Complete sign-up</a></p>`,
      `<p>${escapeHtml(ending)}</p>`,
    ].join('\n'),
  };
};

/**
 * A sign-up asked for `email` at `realm`: refused with INVITATION_REQUIRED when the organization
 * requires invitations, with the form's text for an address that cannot sign up
 * (signUpEmailError). Otherwise, under the address's limit (config.signUpEmailLimit(): past it
 * nothing is sent and the asker is told the same), writes a confirmation (an email invitation with
 * no referrer: a member, the default channels, valid SIGN_UP_LINK_VALID_SECONDS) and emails its
 * link. Emits no event (it is nobody's invitation to manage).
 */
export const doRequestSignUp = async (realm: Realm, email: string): Promise<{ error: string } | { sent: true }> => {
  if (realmProperty(realm, 'invite_required')) return { error: INVITATION_REQUIRED };
  const refusal = await signUpEmailError(realm, email);
  if (refusal !== undefined) return { error: refusal };
  try {
    await admitAttempt('sign_up_form_by_email', email.toLowerCase(), config.signUpEmailLimit());
  } catch (error) {
    if (error instanceof RateLimitedError) return { sent: true };
    throw error;
  }
  const now = nowSeconds();
  const invite: EmailInvite = {
    id: await allocateIds('emailInvite'),
    realmId: realm.id,
    email,
    referredBy: null,
    invitedAs: INVITE_AS.MEMBER,
    streamIds: [],
    groupIds: [],
    includeRealmDefaultSubscriptions: true,
    notifyReferrerOnJoin: false,
    dateCreated: now,
    expiryDate: now + SIGN_UP_LINK_VALID_SECONDS,
    confirmationKey: generateConfirmationKey(),
  };
  // The row first: an email never links to a confirmation that was not written.
  await invitesStore.putEmailInvites([invite]);
  await sendEmail({ to: [email], ...confirmationEmail(realm, `${realmUrl(realm)}/join/${invite.confirmationKey}/`) });
  return { sent: true };
};
