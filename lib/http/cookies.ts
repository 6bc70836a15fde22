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

/**
 * Whether the request's cookies must be Secure: the service is served over HTTPS (its
 * EXTERNAL_URL), or this request came over HTTPS (API Gateway's X-Forwarded-Proto; a deployed
 * stage's endpoint is HTTPS only).
 */
export const isSecureRequest = (event: CookieEvent): boolean =>
  new URL(config.externalUrl()).protocol === 'https:' || event.headers?.['x-forwarded-proto']?.toLowerCase() === 'https';

/**
 * A Set-Cookie value for this host only (no Domain: an organization's cookies never reach
 * another's subdomain), HttpOnly (no script reads it; the pages have none), SameSite=Lax (not sent
 * on another site's POST), Secure behind HTTPS. `maxAgeSeconds` 0 deletes the cookie.
 */
export const setCookie = (name: string, value: string, opts: { secure: boolean; maxAgeSeconds?: number }): string =>
  [
    `${name}=${value}`,
    'Path=/',
    ...(opts.maxAgeSeconds === undefined ? [] : [`Max-Age=${opts.maxAgeSeconds}`]),
    'HttpOnly',
    'SameSite=Lax',
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
