// Web sessions: what the `sessionid` cookie holds and how long it lasts. The cookie carries a
// random token; only its sha256 is stored (lib/store/sessions.ts).
import { createHash, randomBytes } from 'node:crypto';

/** Upstream's SESSION_COOKIE_AGE: two weeks. */
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 60 * 60;

export const SESSION_COOKIE = 'sessionid';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh session token: 32 random bytes, base64url (43 characters). */
export const newSessionToken = (): string => randomBytes(32).toString('base64url');

/** Whether a cookie value has a token's shape (anything else names no session, unread). */
export const isSessionToken = (value: string | undefined): value is string => value !== undefined && TOKEN_PATTERN.test(value);

/** The name a session is stored under: the sha256 of its token, hex. */
export const sessionTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
