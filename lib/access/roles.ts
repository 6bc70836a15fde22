// Role requirements of whole endpoints, with upstream's decorator messages.
import { BadRequestError, UnauthorizedPrincipalError } from '../errors';
import { isAdmin, isGuest, isOwner, type User } from '../models/user';

/** Upstream's require_member_or_admin: guests and bots are refused. */
export const requireMemberOrAdmin = (user: User): void => {
  if (isGuest(user)) throw new BadRequestError('Not allowed for guest users');
  requireHumanUser(user);
};

/** Upstream's require_realm_admin: "Must be an organization administrator" (UNAUTHORIZED_PRINCIPAL). */
export const requireRealmAdmin = (user: User): void => {
  if (!isAdmin(user)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
};

/** Upstream's human_users_only decorator: bots are refused, before parameters are read. */
export const requireHumanUser = (user: User): void => {
  if (user.isBot) throw new BadRequestError('This endpoint does not accept bot requests.');
};

/** Upstream's OrganizationOwnerRequiredError: "Must be an organization owner" (UNAUTHORIZED_PRINCIPAL). */
export const requireRealmOwner = (user: User): void => {
  if (!isOwner(user)) throw new UnauthorizedPrincipalError('Must be an organization owner');
};
