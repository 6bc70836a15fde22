// Signing in and out on the web pages: a password login that starts a session (the `sessionid`
// cookie), ending it, and showing a signed-in person their API key after they re-enter their
// password. The checks are POST /fetch_api_key's (lib/actions/way-in/password-login.ts), with the same
// limits of attempts; the answers are upstream's login form texts.
import { nowSeconds } from '../../clock';
import { ApiError, ErrorCode, RateLimitedError } from '../../errors';
import type { Realm } from '../../models/realm';
import { isSessionToken, newSessionToken, SESSION_LIFETIME_SECONDS, sessionTokenHash } from '../../models/session';
import type { User } from '../../models/user';
import * as sessionsStore from '../../store/sessions';
import * as usersStore from '../../store/users';
import { checkPassword, fetchApiKeyWithPassword } from './password-login';

/** Django's AuthenticationForm invalid_login, with upstream's username field ("email"). */
const INVALID_LOGIN = 'Please enter a correct email and password. Note that both fields may be case-sensitive.';

/** Upstream's DEACTIVATED_ACCOUNT_ERROR. */
const deactivatedAccount = (username: string): string =>
  `Your account ${username} has been deactivated. Please contact your organization administrator to reactivate it.`;

/** Upstream's OurAuthenticationForm text for a rate-limited login (whole seconds, as its int()). */
const tooManyAttempts = (error: RateLimitedError): string =>
  `You're making too many attempts to sign in. Try again in ${Math.floor(Number(error.data['retry-after']))} seconds or contact your organization administrator for help.`;

/** The upstream text of a refused password, for the login form. */
const loginFormError = (error: unknown, username: string): string | undefined => {
  if (error instanceof RateLimitedError) return tooManyAttempts(error);
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === ErrorCode.USER_DEACTIVATED) return deactivatedAccount(username);
  if (error.code === ErrorCode.REALM_DEACTIVATED) return 'This organization has been deactivated.';
  // A wrong password, an unknown or malformed email, an account of another organization: one answer.
  if ([ErrorCode.AUTHENTICATION_FAILED, ErrorCode.NONEXISTENT_SUBDOMAIN, ErrorCode.BAD_REQUEST].includes(error.code as never)) {
    return INVALID_LOGIN;
  }
  return undefined;
};

export type WebLogin = { token: string; user: User } | { formError: string };

/**
 * The login form (POST /login/) at `realm` from `clientAddress`: POST /fetch_api_key's checks and
 * limits (fetchApiKeyWithPassword), then a new session for the account. A refusal is the login
 * form's upstream text (`formError`) and writes only the attempt. Writes the session item (its
 * token's hash, the user, the organization, the expiry as the TTL attribute); emits no event.
 */
export const logInWithPassword = async (realm: Realm, username: string, password: string, clientAddress: string): Promise<WebLogin> => {
  let user: User;
  try {
    user = await fetchApiKeyWithPassword(realm, username, password, clientAddress);
  } catch (error) {
    const formError = loginFormError(error, username);
    if (formError === undefined) throw error;
    return { formError };
  }
  return { token: await startSession(realm, user), user };
};

/**
 * A new session for `user` (the sign-up pages sign the new account in, as the login form does).
 * Writes the session item (its token's hash, the user, the organization, the expiry as the TTL
 * attribute); returns the token the `sessionid` cookie carries.
 */
export const startSession = async (realm: Realm, user: User): Promise<string> => {
  const token = newSessionToken();
  const now = nowSeconds();
  await sessionsStore.putSession({
    tokenHash: sessionTokenHash(token),
    userId: user.id,
    realmId: realm.id,
    createdAt: now,
    expiresAt: now + SESSION_LIFETIME_SECONDS,
  });
  return token;
};

/**
 * How long a sign-in handed to an organization's host may wait to be taken: upstream redirects at
 * once (its token lasts 15 s); here the owner follows a link from the page that created the
 * organization, so it gets 10 minutes.
 */
const LOGIN_HANDOFF_SECONDS = 600;

/**
 * Hands a sign-in of `user` to their organization's host (upstream's
 * redirect_and_log_into_subdomain): a page at the service's root (creating an organization)
 * cannot set that host's session cookie, so it links to the organization's
 * `/accounts/login/subdomain/<token>/` with a one-time token, which starts the session there.
 * Writes the hand-off item (its token's hash, the user, the expiry); returns the token.
 */
export const handOffLogin = async (realm: Realm, user: User): Promise<string> => {
  const token = newSessionToken();
  await sessionsStore.putLoginHandoff({
    tokenHash: sessionTokenHash(token),
    userId: user.id,
    realmId: realm.id,
    expiresAt: nowSeconds() + LOGIN_HANDOFF_SECONDS,
  });
  return token;
};

/**
 * Takes a hand-off at `realm`'s host and starts the session it hands over: the session's token
 * and its user, or undefined for a token that is malformed, unknown, used, expired, of another
 * organization or of an account deactivated since. Removes the hand-off item (once), writes the
 * session item.
 */
export const takeLoginHandoff = async (realm: Realm, token: string): Promise<{ token: string; user: User } | undefined> => {
  if (!isSessionToken(token)) return undefined;
  const handoff = await sessionsStore.takeLoginHandoff(sessionTokenHash(token));
  if (!handoff || handoff.realmId !== realm.id || handoff.expiresAt < nowSeconds()) return undefined;
  const user = await usersStore.get(realm.id, handoff.userId, { consistent: true });
  if (!user || !user.isActive) return undefined;
  return { token: await startSession(realm, user), user };
};

/** Ends the session of the log-out button (POST /logout/). Deletes its item; emits no event. */
export const logOut = (session: { tokenHash: string }): Promise<void> => sessionsStore.deleteSession(session.tokenHash);

/**
 * The web app's "Sign out of other sessions" (ours; upstream has none): ends every session of the
 * user but the one asking, so each other browser's next request is signed out (401 at /json/, the
 * login page for a page). Deletes their items (found through the index of the user's sessions,
 * which may miss one started a moment ago); emits no event. Returns how many ended.
 */
export const logOutOtherSessions = (session: { tokenHash: string; userId: number }): Promise<number> =>
  sessionsStore.deleteSessionsOfUser(session.userId, { except: session.tokenHash });

/**
 * The API key of the signed-in `user`, after they re-entered their password (upstream's
 * json_fetch_api_key: "Password is incorrect."), under the login limit of their email. Writes only
 * the attempt; emits no event.
 */
export const revealApiKey = async (realm: Realm, user: User, password: string): Promise<{ apiKey: string } | { formError: string }> => {
  try {
    if (!(await checkPassword(realm, user.email, user, password))) return { formError: 'Password is incorrect.' };
  } catch (error) {
    if (error instanceof RateLimitedError) return { formError: tooManyAttempts(error) };
    throw error;
  }
  return { apiKey: user.apiKey };
};
