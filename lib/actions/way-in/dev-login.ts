import { AuthenticationFailedError, BadRequestError, ErrorCode, InvalidSubdomainError } from '../../errors';
import { realmUrl, subdomainOf, type Realm } from '../../models/realm';
import { isAdmin, type User } from '../../models/user';
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

type DevUser = { email: string; realm_url: string };

/**
 * GET /dev_list_users (upstream's api_dev_list_users, for the mobile app's development login):
 * the active human accounts, administrators and the others apart, each with its organization's
 * URL, by email. Refused outside development mode, before anything else. At a subdomain that
 * organization's accounts ("Invalid subdomain" for none); at the bare host every active
 * organization's, as upstream lists its server's.
 */
export const listDevUsers = requiring(
  requireDevelopmentMode,
  async (_: void, host: string | undefined): Promise<{ direct_admins: DevUser[]; direct_users: DevUser[] }> => {
    const subdomain = subdomainOf(host);
    let realms: Realm[];
    if (subdomain === undefined) realms = await realmsStore.listAllForOperator();
    else {
      const realm = await realmsStore.getByStringId(subdomain);
      if (!realm) throw new InvalidSubdomainError();
      realms = [realm];
    }
    const accounts = (
      await Promise.all(
        realms
          .filter((realm) => !realm.deactivated)
          .map(async (realm) =>
            (await usersStore.listOfRealm(realm.id)).filter((u) => u.isActive && !u.isBot).map((user) => ({ user, realm })),
          ),
      )
    )
      .flat()
      .sort((a, b) => a.user.email.localeCompare(b.user.email));
    const entry = ({ user, realm }: (typeof accounts)[number]): DevUser => ({ email: user.email, realm_url: realmUrl(realm) });
    return {
      direct_admins: accounts.filter(({ user }) => isAdmin(user)).map(entry),
      direct_users: accounts.filter(({ user }) => !isAdmin(user)).map(entry),
    };
  },
);
