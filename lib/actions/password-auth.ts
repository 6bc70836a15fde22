import { config } from '../config';
import { AuthenticationFailedError, BadRequestError, InvalidSubdomainError } from '../errors';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { hashPassword, needsRehash, verifyPassword } from '../passwords';
import * as passwordsStore from '../store/passwords';
import * as usersStore from '../store/users';
import { checkLoginAccount, EMAIL_PATTERN } from './dev-auth';
import { admitAttempt, clearAttempts } from './rate-limits';

/** A username's entity in the authenticate_by_username limit: per organization, whatever its case. */
const usernameEntity = (realm: Realm, username: string): string => `${realm.id}:${username.toLowerCase()}`;

/**
 * A stored hash of another cost than today's is replaced by a new hash of the password just
 * verified, unless the password was changed meanwhile.
 */
const upgradePasswordHash = async (user: User, stored: string, password: string): Promise<void> => {
  if (needsRehash(stored)) await passwordsStore.replacePasswordHash(user.id, stored, await hashPassword(password));
};

/**
 * Whether `password` is the password of `user` (undefined: no such account at `realm`, checked
 * with the same work). First admits the attempt under the username's limit (upstream's
 * authenticate_by_username: 5 in 30 minutes; 429 when the window is full), so concurrent attempts
 * never pass it; a success clears the username's attempts, as upstream, and replaces a hash of an
 * older cost. Upstream never accepts an empty password.
 */
export const checkPassword = async (realm: Realm, username: string, user: User | undefined, password: string): Promise<boolean> => {
  await admitAttempt('authenticate_by_username', usernameEntity(realm, username), config.loginFailureLimit());
  const stored = user ? await passwordsStore.getPasswordHash(user.id) : undefined;
  const ok = (await verifyPassword(password, stored)) && password !== '';
  if (ok && user && stored) {
    await clearAttempts('authenticate_by_username', usernameEntity(realm, username));
    await upgradePasswordHash(user, stored, password);
  }
  return ok;
};

/**
 * Password login (POST /fetch_api_key) from `clientAddress` at the organization the request's
 * host names. Checks, in upstream's order: the address's limit of attempts (upstream's api_by_ip:
 * 100 a minute; 429), the organization exists ("Invalid subdomain"), the username is an email, the
 * username's limit of attempts, then the account and its password. An unknown email and a wrong
 * password get the same answer after the same work, and count against the username alike. Then,
 * as upstream: an account of another organization at this host is "Invalid subdomain", a
 * deactivated organization or user is told so. Writes the attempts and an upgraded hash; emits no
 * event; never logs the password.
 */
export const fetchApiKeyWithPassword = async (
  realm: Realm | undefined,
  username: string,
  password: string,
  clientAddress: string,
): Promise<User> => {
  await admitAttempt('authenticate_by_ip', clientAddress, config.loginAddressLimit());
  if (!realm) throw new InvalidSubdomainError();
  if (!EMAIL_PATTERN.test(username)) throw new BadRequestError('Enter a valid email address.');
  const accounts = await usersStore.listByEmail(username);
  const user = accounts.find((u) => u.realmId === realm.id);
  if (!(await checkPassword(realm, username, user, password)) || !user) {
    if (!user && accounts.length > 0) throw new InvalidSubdomainError();
    throw new AuthenticationFailedError('Your username or password is incorrect');
  }
  checkLoginAccount(realm, user);
  return user;
};
