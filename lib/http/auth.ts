// HTTP Basic authentication with `<email>:<api_key>`, in upstream's order of checks. Every failure
// is a 401 UNAUTHORIZED with the Basic challenge and upstream's message, except another scheme
// than Basic, which upstream answers 400 BAD_REQUEST (its own tests assert the 400). The key lookup is one
// indexed read; the organization is read next and scopes everything the request does.
import { createHash } from 'node:crypto';
import { nowMs } from '../clock';
import { config } from '../config';
import { BadRequestError, ErrorCode, UnauthorizedError } from '../errors';
import { subdomainOf, type Realm } from '../models/realm';
import type { User } from '../models/user';
import * as realmsStore from '../store/realms';
import * as usersStore from '../store/users';

const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;
const INCOMING_WEBHOOK_BOT = 2;

export type Principal = { user: User; realm: Realm };

/** Splits a Basic header into email and key, or throws the upstream 400 (not Basic) or 401. */
const parseBasicAuth = (header: string): { email: string; apiKey: string } => {
  const [scheme, encoded, ...rest] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'basic') throw new BadRequestError('This endpoint requires HTTP basic authentication.');
  if (!encoded || rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new UnauthorizedError('Invalid authorization header for basic auth');
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new UnauthorizedError('Invalid authorization header for basic auth');
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
};

/** Checks that an account may use the API at this host; shared with dev_fetch_api_key's realm rules. */
const checkAccount = (user: User, realm: Realm | undefined, host: string | undefined): Realm => {
  // Upstream's RealmDeactivatedError (401 REALM_DEACTIVATED), checked before the account.
  if (!realm || realm.deactivated) throw new UnauthorizedError('This organization has been deactivated', ErrorCode.REALM_DEACTIVATED);
  // Upstream's UserDeactivatedError (401 USER_DEACTIVATED).
  if (!user.isActive) throw new UnauthorizedError('Account is deactivated', ErrorCode.USER_DEACTIVATED);
  const sub = subdomainOf(host);
  if (sub !== undefined && sub !== realm.stringId) throw new UnauthorizedError('Account is not associated with this subdomain');
  return realm;
};

/** The most keys the cache of looked-up accounts holds (the oldest is dropped past it). */
const ACCOUNT_CACHE_MAX = 10_000;
type CachedAccount = { user: User; realm: Realm | undefined; expiresMs: number };
/**
 * Accounts looked up by key in this process, keyed by the key's SHA-256 (the key itself is never
 * kept), for `config.authCacheMs()`: a process serving many long-polls (or one client's polls in
 * a row) reads the key and organization once per interval, not once per request. A change of the
 * account (deactivation, a new key, the organization deactivated) therefore takes effect within
 * that interval in such a process, as documented in docs/architecture.md ("Authentication").
 */
const accountCache = new Map<string, CachedAccount>();

/** Test-only: forgets every cached account. */
export const clearAccountCache = (): void => accountCache.clear();

const lookUpAccount = async (apiKey: string, cached: boolean): Promise<{ user: User; realm: Realm | undefined } | undefined> => {
  const ttl = cached ? config.authCacheMs() : 0;
  const hash = ttl > 0 ? createHash('sha256').update(apiKey).digest('hex') : '';
  const hit = ttl > 0 ? accountCache.get(hash) : undefined;
  if (hit && hit.expiresMs > nowMs()) return hit;
  const user = await usersStore.getByApiKey(apiKey);
  if (!user) return undefined;
  const realm = await realmsStore.get(user.realmId);
  if (ttl > 0) {
    accountCache.delete(hash);
    accountCache.set(hash, { user, realm, expiresMs: nowMs() + ttl });
    if (accountCache.size > ACCOUNT_CACHE_MAX) accountCache.delete(accountCache.keys().next().value!);
  }
  return { user, realm };
};

/**
 * Authenticates an Authorization header value; `host` is the Host header (for the subdomain check).
 * With `cached`, the account found by the key may be up to `config.authCacheMs()` old (GET /events).
 */
export const authenticate = async (header: string | undefined, host: string | undefined, cached = false): Promise<Principal> => {
  if (header === undefined || header === '') throw new UnauthorizedError();
  const { email, apiKey } = parseBasicAuth(header);
  if (!API_KEY_PATTERN.test(apiKey)) throw new UnauthorizedError('Malformed API key');
  const found = await lookUpAccount(apiKey, cached);
  const user = found?.user;
  if (!user || user.email.toLowerCase() !== email.toLowerCase()) throw new UnauthorizedError('Invalid API key');
  const realm = checkAccount(user, found.realm, host);
  if (user.isBot && user.botType === INCOMING_WEBHOOK_BOT)
    throw new UnauthorizedError('This API is not available to incoming webhook bots.');
  return { user, realm };
};

/** The organization an unauthenticated request addresses: its subdomain, else the default one. */
export const realmForHost = async (host: string | undefined): Promise<Realm | undefined> => {
  const stringId = subdomainOf(host) ?? config.defaultRealm();
  return realmsStore.getByStringId(stringId);
};
