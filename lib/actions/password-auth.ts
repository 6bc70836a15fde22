import { config } from '../config';
import { AuthenticationFailedError, InvalidSubdomainError, RateLimitedError } from '../errors';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { verifyPassword } from '../passwords';
import * as passwordsStore from '../store/passwords';
import * as usersStore from '../store/users';
import { checkLoginAccount, checkLoginEmail } from './dev-auth';

/**
 * Refuses a username that has had the limit of failed logins within the window (upstream's
 * authenticate_by_username: 5 per 30 minutes), before its password is looked at: 429 with the
 * seconds until the oldest failure leaves the window.
 */
const checkLoginRateLimit = async (realm: Realm, username: string, now: number): Promise<void> => {
  const { windowSeconds, attempts } = config.loginFailureLimit();
  const recent = (await passwordsStore.getLoginFailures(realm.id, username)).filter((t) => t > now - windowSeconds * 1000);
  if (recent.length >= attempts) {
    const oldestThatCounts = recent[recent.length - attempts];
    throw new RateLimitedError(Math.max(0, (oldestThatCounts + windowSeconds * 1000 - now) / 1000));
  }
};

/**
 * Whether `password` is the password of `user` (undefined: no such account at `realm`, checked
 * with the same work). Refuses a rate-limited username first (429); counts a failure against the
 * username. Upstream never accepts an empty password.
 */
export const checkPassword = async (
  realm: Realm,
  username: string,
  user: User | undefined,
  password: string,
  now = Date.now(),
): Promise<boolean> => {
  await checkLoginRateLimit(realm, username, now);
  const ok = (await verifyPassword(password, user ? await passwordsStore.getPasswordHash(user.id) : undefined)) && password !== '';
  if (!ok) {
    const { windowSeconds } = config.loginFailureLimit();
    await passwordsStore.recordLoginFailure(realm.id, username, now, Math.floor(now / 1000) + windowSeconds);
  }
  return ok;
};

/**
 * Password login (POST /fetch_api_key) at the organization the request's host names. Checks, in
 * upstream's order: the organization exists ("Invalid subdomain"), the username is an email, the
 * rate limit of failed attempts, then the account and its password. An unknown email and a wrong
 * password get the same answer after the same work; a failure is counted against the username
 * whether or not it exists. Then, as upstream: an account of another organization at this host
 * is "Invalid subdomain", a deactivated organization or user is told so. Writes only the failure
 * count; emits no event; never logs the password.
 */
export const fetchApiKeyWithPassword = async (
  realm: Realm | undefined,
  username: string,
  password: string,
  now = Date.now(),
): Promise<User> => {
  if (!realm) throw new InvalidSubdomainError();
  checkLoginEmail(username);
  const accounts = await usersStore.listByEmail(username);
  const user = accounts.find((u) => u.realmId === realm.id);
  if (!(await checkPassword(realm, username, user, password, now)) || !user) {
    if (!user && accounts.length > 0) throw new InvalidSubdomainError();
    throw new AuthenticationFailedError('Your username or password is incorrect');
  }
  checkLoginAccount(realm, user);
  return user;
};
