import { AuthenticationFailedError, BadRequestError, ErrorCode, InvalidSubdomainError } from '../../errors';
import { subdomainOf, type Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { requiring } from '../requiring';
import { requireDevelopmentMode } from '../../access/way-in';

// Django's EmailValidator, reduced to what matters here: a local part, an @, a dotted domain or localhost.
const EMAIL_PATTERN = /^[^\s@]+@(localhost|[^\s@.]+(\.[^\s@.]+)+)$/i;
/** Django's EmailValidator refuses an address over 320 characters (code points, as Python counts). */
const MAX_EMAIL_LENGTH = 320;

/** Upstream's validate_login_email: a login's username must be a valid email address. */
export const checkLoginEmail = (username: string): void => {
  if ([...username].length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(username)) throw new BadRequestError('Enter a valid email address.');
};

/** A login's last checks, as upstream's: the organization is active, then the account. */
export const checkLoginAccount = (realm: Realm | undefined, user: User): void => {
  if (!realm || realm.deactivated)
    throw new AuthenticationFailedError('This organization has been deactivated', ErrorCode.REALM_DEACTIVATED);
  if (!user.isActive) throw new AuthenticationFailedError('Account is deactivated', ErrorCode.USER_DEACTIVATED);
};

/**
 * Development login (POST /dev_fetch_api_key): returns the API key of any account, without a
 * password. Refused outside development mode, before anything else (authorize() lets the handler
 * refuse before it reads its parameters). At a subdomain only that organization's accounts
 * are found; at the bare host (local development) the email alone names the account.
 * Checks, in upstream's order: production, email syntax, subdomain, account, organization, user.
 * Writes nothing and emits no event.
 */
export const fetchDevApiKey = requiring(requireDevelopmentMode, async (_: void, username: string, host: string | undefined) => {
  checkLoginEmail(username);
  const subdomain = subdomainOf(host);
  let candidates = await usersStore.listByEmail(username);
  if (subdomain !== undefined) {
    const realm = await realmsStore.getByStringId(subdomain);
    if (!realm) throw new InvalidSubdomainError();
    candidates = candidates.filter((u) => u.realmId === realm.id);
  }
  const user = candidates[0];
  if (!user) throw new AuthenticationFailedError('Your username or password is incorrect');
  checkLoginAccount(await realmsStore.get(user.realmId), user);
  return user;
});
