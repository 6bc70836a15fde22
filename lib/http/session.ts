// The signed-in person of a page request or of the web app's `/json/…` request: the `sessionid`
// cookie's session, if it is unexpired, of the organization the request's host names, and its
// account and organization are active. A deactivated account or organization is signed out at its
// next request, whatever its sessions.
import { nowSeconds } from '../clock';
import { CsrfFailedError, SessionRequiredError } from '../errors';
import { isSessionToken, SESSION_COOKIE, sessionTokenHash } from '../models/session';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import * as sessionsStore from '../store/sessions';
import * as usersStore from '../store/users';
import { realmForHost } from './auth';
import { requestCookies } from './cookies';
import { CSRF_COOKIE, csrfFailure } from './csrf';
import { JSON_ROUTE_HEADER } from './route-table';

export type WebSession = { tokenHash: string; user: User; realm: Realm; expiresAt: number };

/**
 * The session `token` names at `realm` (the host's organization), or undefined. One read of the
 * session and one of the user; an expired session is no session (DynamoDB deletes expired items
 * late, DynamoDB Local never).
 */
export const sessionOf = async (token: string | undefined, realm: Realm | undefined): Promise<WebSession | undefined> => {
  if (!realm || realm.deactivated || !isSessionToken(token)) return undefined;
  const tokenHash = sessionTokenHash(token);
  const stored = await sessionsStore.getSession(tokenHash);
  if (!stored || stored.expiresAt <= nowSeconds() || stored.realmId !== realm.id) return undefined;
  const user = await usersStore.get(realm.id, stored.userId);
  if (!user || !user.isActive) return undefined;
  return { tokenHash, user, realm, expiresAt: stored.expiresAt };
};

type JsonEvent = {
  headers?: Record<string, string | undefined>;
  cookies?: string[];
  body?: unknown;
  requestContext?: { http?: { method?: string } };
};

/** Methods that change nothing, which need no CSRF token (Django's safe methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Whether a request came through the web app's `/json/…` routes (lib/http/route-table.ts). */
export const isJsonRoute = (headers: Record<string, string | undefined> | undefined): boolean => headers?.[JSON_ROUTE_HEADER] === '1';

/**
 * The host the client addressed, which names the organization: X-Forwarded-Host when a hop in
 * front set it (the HTTP API's hop from `/json/` to `/api/v1/`, whose own request is addressed to
 * the API's host; the long-poll edge's CloudFront, which sends every request to its origins with
 * the viewer's Host there: edge/index.js), else Host. Its first value, should a proxy append.
 */
const viewerHost = (headers: Record<string, string | undefined> | undefined): string | undefined =>
  headers?.['x-forwarded-host']?.split(',')[0]?.trim() || headers?.host;

/** The request's headers with Host the viewer's (viewerHost), for everything that reads Host after. */
export const withViewerHost = <H extends Record<string, string | undefined>>(headers: H | undefined): H => {
  const host = viewerHost(headers);
  return (host === headers?.host ? (headers ?? {}) : { ...headers, host }) as H;
};

/** Whether the request carries a session cookie (a browser's, signed in or once signed in). */
export const hasSessionCookie = (event: JsonEvent): boolean => requestCookies(event)[SESSION_COOKIE] !== undefined;

/**
 * The stored name of the session a `/json/…` request came with (its cookie's token hash), or
 * undefined for a request of the API (an API key names no session). The endpoint wrapper has
 * already checked that session live by the time a handler asks.
 */
export const jsonSessionTokenHash = (event: JsonEvent): string | undefined => {
  if (!isJsonRoute(event.headers)) return undefined;
  const token = requestCookies(event)[SESSION_COOKIE];
  return isSessionToken(token) ? sessionTokenHash(token) : undefined;
};

/**
 * Authenticates a `/json/…` request as upstream's `rest_dispatch` does a session's: the
 * `sessionid` cookie's live session at the host's organization, then, for a method that may change
 * something, the CSRF token (the `X-CSRFToken` header, or a form's `csrfmiddlewaretoken` field)
 * against the `csrftoken` cookie. Without a session: 401 with the Session challenge when
 * `required`, else the host's organization alone (its anonymous views). A wrong or missing token:
 * 403 CSRF_FAILED, and nothing runs.
 */
export function authenticateJsonRequest(event: JsonEvent, required: true): Promise<{ user: User; realm: Realm }>;
export function authenticateJsonRequest(event: JsonEvent, required: boolean): Promise<{ user: User | undefined; realm: Realm | undefined }>;
export async function authenticateJsonRequest(
  event: JsonEvent,
  required: boolean,
): Promise<{ user: User | undefined; realm: Realm | undefined }> {
  const realm = await realmForHost(viewerHost(event.headers));
  const cookies = requestCookies(event);
  const session = await sessionOf(cookies[SESSION_COOKIE], realm);
  if (!session && required) throw new SessionRequiredError();
  const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
  if (!SAFE_METHODS.has(method)) {
    const field = event.body && typeof event.body === 'object' ? (event.body as Record<string, unknown>).csrfmiddlewaretoken : undefined;
    const sent = event.headers?.['x-csrftoken'] ?? (typeof field === 'string' ? field : undefined);
    const failure = csrfFailure(cookies[CSRF_COOKIE], sent, session?.tokenHash ?? '', 'header');
    if (failure) throw new CsrfFailedError(failure);
  }
  return session ? { user: session.user, realm: session.realm } : { user: undefined, realm };
}
