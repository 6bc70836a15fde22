import { config } from '../../config';
import { AuthenticationFailedError, InvalidSubdomainError } from '../../errors';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { hashPassword, needsRehash, verifyPassword } from '../../passwords';
import * as passwordsStore from '../../store/passwords';
import * as usersStore from '../../store/users';
import { checkLoginAccount, checkLoginEmail } from './dev-login';
import { admitAttempt, clearAttempts } from './rate-limits';

/** A username's entity in the authenticate_by_username limit: per organization, whatever its case. */
const usernameEntity = (realm: Realm, username: string): string => `${realm.id}:${username.toLowerCase()}`;

/**
 * The stored hash `password` matched (undefined: a wrong password, an empty one, which upstream
 * never accepts, or no such account at `realm`, checked with the same work). First admits the
 * attempt under the username's limit (upstream's authenticate_by_username: 5 in 30 minutes; 429
 * when the window is full), so concurrent attempts never pass it; a match clears the username's
 * attempts, as upstream.
 */
const matchPassword = async (realm: Realm, username: string, user: User | undefined, password: string): Promise<string | undefined> => {
  await admitAttempt('authenticate_by_username', usernameEntity(realm, username), config.loginFailureLimit());
  const stored = user ? await passwordsStore.getPasswordHash(user.id) : undefined;
  if (!(await verifyPassword(password, stored)) || password === '' || !stored) return undefined;
  await clearAttempts('authenticate_by_username', usernameEntity(realm, username));
  return stored;
};

/** Whether `password` is the password of `user`, under the username's limit of attempts (matchPassword). */
export const checkPassword = async (realm: Realm, username: string, user: User | undefined, password: string): Promise<boolean> =>
  (await matchPassword(realm, username, user, password)) !== undefined;

/**
 * Password login (POST /fetch_api_key) from `clientAddress` at the organization the request's
 * host names. Checks, in upstream's order: the address's limit of attempts (upstream's api_by_ip:
 * 100 a minute; 429), the organization exists ("Invalid subdomain"), the username is an email, the
 * username's limit of attempts, then the account and its password. An unknown email and a wrong
 * password get the same answer after the same work, and count against the username alike. Then,
 * as upstream: an account of another organization at this host is "Invalid subdomain", a
 * deactivated organization or user is told so. Writes the attempts, and after a successful login a
 * new hash of the password when the stored one has an older cost; emits no event; never logs the
 * password.
 */
export const fetchApiKeyWithPassword = async (
  realm: Realm | undefined,
  username: string,
  password: string,
  clientAddress: string,
): Promise<User> => {
  await admitAttempt('authenticate_by_ip', clientAddress, config.loginAddressLimit());
  if (!realm) throw new InvalidSubdomainError();
  checkLoginEmail(username);
  const accounts = await usersStore.listByEmail(username);
  const user = accounts.find((u) => u.realmId === realm.id);
  const matched = await matchPassword(realm, username, user, password);
  if (matched === undefined || !user) {
    if (!user && accounts.length > 0) throw new InvalidSubdomainError();
    throw new AuthenticationFailedError('Your username or password is incorrect');
  }
  checkLoginAccount(realm, user);
  // A hash of an older cost is replaced by one of today's, unless the password changed meanwhile.
  if (needsRehash(matched)) await passwordsStore.replacePasswordHash(user.id, matched, await hashPassword(password));
  return user;
};
