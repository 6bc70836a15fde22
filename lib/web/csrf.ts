// Cross-site request forgery protection for every form: a signed double-submit token. A page that
// shows a form sets the `csrftoken` cookie (when the request has no valid one) and puts the same
// value in the form's hidden `csrfmiddlewaretoken` field; a POST is served only when the field
// equals the cookie and the token's signature is valid for the request's session. Another site can
// neither read the cookie nor set it (HttpOnly, host-only, and its signature binds it to the
// session), so it cannot build a matching field. SameSite=Lax on the session cookie is a second line.
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

/** Why a POST is refused, or undefined when its field matches its valid cookie. */
export const csrfFailure = (cookie: string | undefined, field: string | undefined, binding: string): string | undefined => {
  if (cookie === undefined || cookie === '') return 'CSRF cookie not set.';
  if (field === undefined || field === '') return 'CSRF token missing.';
  if (!isValidCsrfToken(cookie, binding) || !sameText(cookie, field)) return 'CSRF token incorrect.';
  return undefined;
};
