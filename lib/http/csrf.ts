// Cross-site request forgery protection for every form and for the web app's /json/ requests: a
// signed double-submit token. A page that shows a form (or the web app's shell) sets the
// `csrftoken` cookie (when the request has no valid one) and puts the same value in the form's
// hidden `csrfmiddlewaretoken` field; a POST is served only when the field (or, from the web app,
// the `X-CSRFToken` header) equals the cookie and the token's signature is valid for the request's
// session. Another site can neither read the cookie nor set it (HttpOnly, host-only, and its
// signature binds it to the session), so it cannot build a matching field. SameSite=Lax on the
// session cookie is a second line.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '../config';

export const CSRF_COOKIE = 'csrftoken';

/**
 * The key tokens are signed with: derived from the service's signing secret (the stage's
 * uploadUrlSecret, UPLOAD_URL_SECRET), so a deployment needs no second secret, while a signature
 * made for one purpose is never valid for another.
 */
const signingKey = (): Buffer => createHmac('sha256', config.uploadUrlSecret()).update('web pages: CSRF tokens').digest();

/** `binding` ties a token to a session (its token hash), or '' before signing in. */
const signature = (nonce: string, binding: string): string =>
  createHmac('sha256', signingKey()).update(`${binding}\n${nonce}`).digest('base64url');

/** A fresh token for `binding`: `<random nonce>.<signature>`. */
export const newCsrfToken = (binding: string): string => {
  const nonce = randomBytes(24).toString('base64url');
  return `${nonce}.${signature(nonce, binding)}`;
};

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether `token` was signed by this service for `binding`. */
export const isValidCsrfToken = (token: string | undefined, binding: string): boolean => {
  if (token === undefined || token.length > 200) return false;
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  return sameText(token.slice(dot + 1), signature(token.slice(0, dot), binding));
};

/**
 * Why a request is refused, or undefined when the token it sent matches its valid cookie. `source`
 * is where the token was sent: a form's field (the pages), or the `X-CSRFToken` header (the web
 * app's /json/ requests), which upstream's message (Django's) names.
 */
export const csrfFailure = (
  cookie: string | undefined,
  sent: string | undefined,
  binding: string,
  source: 'field' | 'header' = 'field',
): string | undefined => {
  if (cookie === undefined || cookie === '') return 'CSRF cookie not set.';
  if (sent === undefined || sent === '') return 'CSRF token missing.';
  if (!isValidCsrfToken(cookie, binding) || !sameText(cookie, sent))
    return source === 'header' ? "CSRF token from the 'X-Csrftoken' HTTP header incorrect." : 'CSRF token incorrect.';
  return undefined;
};
