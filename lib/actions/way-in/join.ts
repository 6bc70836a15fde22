// Signing up from an invitation (upstream's /join/<key>/ and the registration form of
// zerver/views/registration.py): the link's key names an email invitation or a reusable link of
// the organization; the form gives the name and the password (and, for a reusable link, the
// email); the account gets the invitation's role, channels and groups.
import { ApiError } from '../../errors';
import { accessJoinInvitation } from '../../access/way-in';
import { isValidEmailAddress, type InviteByKey } from '../../models/invite';
import { EMAIL_DOMAIN_REFUSALS } from '../../models/realm-domain';
import { realmProperty, type Realm } from '../../models/realm';
import { accountFieldErrors, checkFullName, type Role, type User } from '../../models/user';
import * as invitesStore from '../../store/invites';
import * as usersStore from '../../store/users';
import { doCreateUser, EMAIL_IN_USE } from '../people/create';
import { emailDomainRefusal } from '../organization/domains';

/**
 * GET and POST /join/<key>/: the invitation a link names at `realm` (accessJoinInvitation:
 * ConfirmationLinkError when the link does not work). Reads only.
 */
export const readJoinInvitation = (realm: Realm, key: string): Promise<InviteByKey> => accessJoinInvitation(realm, key);

export type JoinForm = { email?: string; fullName: string; password: string };

/** Upstream's registration form texts for an email the organization does not admit. */
const domainRefusalText = (realm: Realm, email: string, refusal: keyof typeof EMAIL_DOMAIN_REFUSALS): string =>
  refusal === 'plus'
    ? 'Email addresses containing + are not allowed in this organization.'
    : `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in ${realm.name}.`;

/**
 * Why an address typed into a sign-up form (a reusable link's, /register/) cannot sign up at
 * `realm`, in upstream's form texts: empty, malformed, not of the organization's allowed domains
 * when it restricts them, or already an account's. Undefined when it can.
 */
export const signUpEmailError = async (realm: Realm, email: string): Promise<string | undefined> => {
  if (email === '') return 'This field is required.';
  if (!isValidEmailAddress(email) || Buffer.byteLength(email, 'utf8') > 254) return 'Enter a valid email address.';
  const refusal = realmProperty(realm, 'emails_restricted_to_domains') ? await emailDomainRefusal(realm, email) : undefined;
  if (refusal !== undefined) return domainRefusalText(realm, email, refusal);
  if (await usersStore.isEmailTaken(realm.id, email)) return EMAIL_IN_USE;
  return undefined;
};

/** The form's own errors, in the order the form shows its fields; none when the account may be created. */
const formErrors = async (realm: Realm, invitation: InviteByKey, email: string, form: JoinForm): Promise<string[]> => {
  const errors: string[] = [];
  if (invitation.kind === 'multiuse') {
    const refusal = await signUpEmailError(realm, email);
    if (refusal !== undefined) errors.push(refusal);
  }
  errors.push(...accountFieldErrors(form.fullName, form.password));
  return errors;
};

/**
 * Creates the account of a sign-up from an accessed invitation, as upstream's registration with
 * do_create_user: for a reusable link the email given (valid, admitted by the organization's
 * allowed domains when it restricts them, not in use), the name (checkFullName) and the password
 * (long enough). A refusal is the form's errors and writes nothing. Then doCreateUser with the
 * invitation's role, channels and groups (and the default channels unless it said not to), and an
 * email invitation is marked used (a second account from it is refused by the email's lock:
 * "Email is already in use."). Emits what doCreateUser emits.
 */
export const checkJoin = async (realm: Realm, invitation: InviteByKey, form: JoinForm): Promise<{ user: User } | { errors: string[] }> => {
  const email = invitation.kind === 'email' ? invitation.invite.email : (form.email ?? '').trim();
  const errors = await formErrors(realm, invitation, email, form);
  if (errors.length > 0) return { errors };
  const { invite } = invitation;
  let user: User;
  try {
    user = await doCreateUser(realm, {
      email,
      fullName: checkFullName(form.fullName),
      role: invite.invitedAs as Role,
      password: form.password,
      channelIds: invite.streamIds,
      groupIds: invite.groupIds ?? [],
      includeDefaultChannels: invite.includeRealmDefaultSubscriptions !== false,
    });
  } catch (error) {
    if (error instanceof ApiError && error.message === EMAIL_IN_USE) return { errors: [EMAIL_IN_USE] };
    throw error;
  }
  if (invitation.kind === 'email') await invitesStore.markEmailInviteUsed(realm.id, invite.id);
  return { user };
};
