// Development mode's sign-in without a password (upstream's /devlogin/ page, which its
// DevAuthBackend serves): the accounts of the host's organization grouped by role as upstream's
// dev_login.html groups them, each a button of one POST form that signs in as it. None of it
// exists outside development mode: the routes answer the 404 page of an unknown path there.
import { config } from '../config';
import type { HttpResponse } from '../http/response';
import type { Realm } from '../models/realm';
import { Role, type User } from '../models/user';
import * as usersStore from '../store/users';
import { html, type SafeHtml } from './html';
import { CSRF_FIELD } from './page';
import { pageNotFound, type PageContext } from './page-handler';

/** Where the page's buttons post (upstream's `login-local` URL) and the field naming the account. */
const DEV_LOGIN_ACTION = '/accounts/login/local/';
export const DEV_LOGIN_FIELD = 'direct_email';

/** Whether the development login is offered (the login page links to it only then). */
export const isDevLoginAvailable = (): boolean => config.isDevelopment();

/**
 * A page handler served only in development mode: anywhere else the 404 page of an unknown path,
 * before anything is read (no CSRF refusal or organization lookup tells the route exists).
 */
export const developmentOnly =
  <E, C>(handler: (event: E, context?: C) => Promise<HttpResponse>) =>
  (event: E, context?: C): Promise<HttpResponse> =>
    isDevLoginAvailable() ? handler(event, context) : Promise.resolve(pageNotFound());

type Group = { heading: string; none: string; roles: number[] };

/** Upstream's groups and their order; its moderators and guests have their own. */
const GROUPS: Group[] = [
  { heading: 'Owners', none: 'No owners found in this realm', roles: [Role.OWNER] },
  { heading: 'Administrators', none: 'No administrators found in this realm', roles: [Role.ADMINISTRATOR] },
  { heading: 'Moderators', none: 'No moderators found in this realm', roles: [Role.MODERATOR] },
  { heading: 'Guest users', none: 'No guest users found in this realm', roles: [Role.GUEST] },
  { heading: 'Normal users', none: 'No normal users found in this realm', roles: [Role.MEMBER] },
];

const canSignIn = (user: User): boolean => user.isActive && !user.isBot;

export type DevLoginGroup = { heading: string; none: string; users: User[] };

/**
 * The organization's active human accounts in upstream's groups, each sorted by email; none
 * outside development mode. One bounded query of the organization's users.
 */
export const devLoginAccounts = async (realm: Realm): Promise<DevLoginGroup[]> => {
  if (!isDevLoginAvailable()) return [];
  const users = (await usersStore.listOfRealm(realm.id)).filter(canSignIn).sort((a, b) => a.email.localeCompare(b.email));
  return GROUPS.map(({ heading, none, roles }) => ({ heading, none, users: users.filter((u) => roles.includes(u.role)) }));
};

/** The active human account of the organization with this email; none outside development mode. */
export const devLoginAccount = async (realm: Realm, email: string): Promise<User | undefined> => {
  if (!isDevLoginAvailable()) return undefined;
  const user = await usersStore.getByEmail(realm.id, email);
  return user && canSignIn(user) ? user : undefined;
};

const accountButton = (user: User): SafeHtml =>
  html`<button type="submit" name="${DEV_LOGIN_FIELD}" value="${user.email}" class="secondary dev-login-button">
    <span class="name">${user.fullName}</span> <span class="email">${user.email}</span>
  </button>`;

/** The page: upstream's heading, a link to the normal login page, and one form of account buttons. */
export const devLoginPage = (ctx: PageContext, groups: DevLoginGroup[], errors: string[] = [], statusCode = 200): HttpResponse =>
  ctx.page(
    statusCode,
    'Log in',
    html`<div class="box">
      <h1>Click on a user to log in to ${ctx.realm.name}!</h1>
      <p class="below-form">(Or visit the <a href="/login/">normal login page</a>.)</p>
      ${errors.length > 0 && html`<div class="alert" role="alert">${errors.map((e) => html`<div>${e}</div>`)}</div>`}
      <form method="post" action="${DEV_LOGIN_ACTION}" name="direct_login_form" id="direct_login_form">
        <input type="hidden" name="${CSRF_FIELD}" value="${ctx.form.csrfToken}" />
        ${groups.map(
          (g) =>
            html`<h2>${g.heading}</h2>
              ${g.users.length === 0 ? html`<p class="hint">${g.none}</p>` : html`<div class="account-list">${g.users.map(accountButton)}</div>`}`,
        )}
      </form>
    </div>`,
  );
