// Cookies of the server-rendered pages. API Gateway's payload 2.0 hands the request's cookies over
// in `event.cookies` (and serverless-offline may leave them in the Cookie header); a response sets
// them in its `cookies` list, one Set-Cookie each.
import { config } from '../config';

type CookieEvent = { cookies?: string[]; headers?: Record<string, string | undefined> };

/** The request's cookies by name (the first of a repeated name, as browsers send the most specific first). */
export const requestCookies = (event: CookieEvent): Record<string, string> => {
  const pairs = [...(event.cookies ?? []), ...(event.headers?.cookie ?? '').split(';')];
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === '' || name in out) continue;
    out[name] = pair.slice(eq + 1).trim();
  }
  return out;
};

/** Whether cookies must be Secure: the service is served over HTTPS (its EXTERNAL_URL). */
const secureCookies = (): boolean => new URL(config.externalUrl()).protocol === 'https:';

/**
 * A Set-Cookie value for this host only (no Domain: an organization's cookies never reach
 * another's subdomain), HttpOnly (no script reads it; the pages have none), SameSite=Lax (not sent
 * on another site's POST), Secure behind HTTPS. `maxAgeSeconds` 0 deletes the cookie.
 */
export const setCookie = (name: string, value: string, maxAgeSeconds?: number): string =>
  [
    `${name}=${value}`,
    'Path=/',
    ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`]),
    'HttpOnly',
    'SameSite=Lax',
    ...(secureCookies() ? ['Secure'] : []),
  ].join('; ');

/** A Set-Cookie value that deletes the cookie. */
export const clearCookie = (name: string): string => setCookie(name, '', 0);
