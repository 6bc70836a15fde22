// The ways in: which invitation, reset link or development login a request may use (upstream's
// get_object_from_key, the reset token's check, access_invite_by_id, check_role_based_permissions).
import { fingerprintOf } from '../passwords';
import { nowSeconds } from '../clock';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors';
import {
  isKeyOfValidLength,
  ConfirmationLinkError,
  type InviteByKey,
  type PasswordResetAccess,
  INVITE_AS,
  type EmailInvite,
  type MultiuseInvite,
} from '../models/invite';
import { type Realm } from '../models/realm';
import { type User, isAdmin, isOwner } from '../models/user';
import * as invitesStore from '../store/invites';
import * as usersStore from '../store/users';
import { config } from '../config';
import * as passwordResetsStore from '../store/password-resets';
import * as passwordsStore from '../store/passwords';
import { requireMemberOrAdmin } from './roles';

/**
 * The invitation a /join/<key>/ link names at `realm` (the host's organization), as upstream's
 * get_object_from_key: a key of the wrong length is malformed, an unknown key (or one of
 * another organization) does not exist, and an expired link, a revoked reusable link and a used
 * email invitation are expired. Reads one index item.
 */
export const accessJoinInvitation = async (realm: Realm, key: string): Promise<InviteByKey> => {
  if (!isKeyOfValidLength(key)) throw new ConfirmationLinkError('malformed');
  const found = await invitesStore.getInviteByConfirmationKey(key);
  if (!found || found.invite.realmId !== realm.id) throw new ConfirmationLinkError('does_not_exist');
  const { invite } = found;
  if (invite.expiryDate !== null && invite.expiryDate < nowSeconds()) throw new ConfirmationLinkError('expired');
  if (found.kind === 'multiuse' ? invite.status === 'revoked' : found.invite.status === 'used') throw new ConfirmationLinkError('expired');
  return found;
};

/**
 * The account a reset link (/accounts/password/reset/<key>/) names at `realm`, as upstream's
 * check of the token: a key of the wrong length is malformed; an unknown key, one of another
 * organization, or a used one does not exist; a link past its time, of an account deactivated
 * since, or issued before the password changed is expired. Reads the key, the user and the hash.
 */
export const accessPasswordResetLink = async (realm: Realm, resetKey: string): Promise<PasswordResetAccess> => {
  if (!isKeyOfValidLength(resetKey)) throw new ConfirmationLinkError('malformed');
  const link = await passwordResetsStore.getPasswordResetKey(resetKey);
  if (!link || link.realmId !== realm.id) throw new ConfirmationLinkError('does_not_exist');
  if (link.validUntil < nowSeconds()) throw new ConfirmationLinkError('expired');
  const user = await usersStore.get(realm.id, link.userId, { consistent: true });
  if (!user?.isActive || user.isBot) throw new ConfirmationLinkError('expired');
  if (fingerprintOf(await passwordsStore.getPasswordHash(user.id)) !== link.passwordFingerprint) throw new ConfirmationLinkError('expired');
  return { resetKey, user };
};

/**
 * Upstream's check_role_based_permissions: an owner invitation needs an owner ("Must be an
 * organization owner", UNAUTHORIZED_PRINCIPAL); with `requireAdmin`, anyone else needs an
 * administrator ("Must be an organization administrator", a plain BAD_REQUEST there).
 */
export const checkRoleBasedPermissions = (invitedAs: number, user: User, opts: { requireAdmin: boolean }): void => {
  if (invitedAs === INVITE_AS.REALM_OWNER && !isOwner(user)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  if (opts.requireAdmin && !isAdmin(user)) throw new BadRequestError('Must be an organization administrator');
};

/**
 * Upstream's access_multiuse_invite_by_id, in its order: the link exists in the caller's
 * organization ("No such invitation"), the caller created it or may manage it (role-based
 * permissions with an administrator required), and it is not revoked ("Invitation has already
 * been revoked"). Guests and bots are refused first.
 */
export const accessMultiuseInvite = async (user: User, inviteId: number): Promise<MultiuseInvite> => {
  requireMemberOrAdmin(user);
  const invite = await invitesStore.getInvite(user.realmId, inviteId, { consistent: true });
  if (!invite) throw new BadRequestError('No such invitation');
  if (invite.referredBy !== user.id) checkRoleBasedPermissions(invite.invitedAs, user, { requireAdmin: true });
  if (invite.status === 'revoked') throw new BadRequestError('Invitation has already been revoked');
  return invite;
};

/**
 * Upstream's access_invite_by_id: the email invitation exists in the caller's organization ("No
 * such invitation"), and the caller sent it or may manage it (role-based permissions with an
 * administrator required). Guests and bots are refused first.
 */
export const accessEmailInvite = async (user: User, inviteId: number): Promise<EmailInvite> => {
  requireMemberOrAdmin(user);
  const invite = await invitesStore.getEmailInvite(user.realmId, inviteId, { consistent: true });
  // A sign-up's own email confirmation is nobody's invitation (upstream lists only referred ones).
  if (!invite || invite.referredBy === null) throw new BadRequestError('No such invitation');
  if (invite.referredBy !== user.id) checkRoleBasedPermissions(invite.invitedAs, user, { requireAdmin: true });
  return invite;
};

/** In production the endpoint answers this and nothing else, whatever the parameters. */
export const requireDevelopmentMode = (): void => {
  if (!config.isDevelopment()) throw new BadRequestError('Endpoint not available in production.');
};
