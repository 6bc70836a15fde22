// HTTP Basic authentication with `<email>:<api_key>`, in upstream's order of checks. Every failure
// is a 401 UNAUTHORIZED with the Basic challenge and upstream's message, except another scheme
// than Basic, which upstream answers 400 BAD_REQUEST (its own tests assert the 400). The key lookup is one
// indexed read; the organization is read next and scopes everything the request does.
import { createHash } from 'node:crypto';
import { nowMs } from '../clock';
import { config } from '../config';
import { ApiError, BadRequestError, ErrorCode, MissingArgumentError, UnauthorizedError } from '../errors';
import { subdomainOf, type Realm } from '../models/realm';
import type { User } from '../models/user';
import type { QueueState } from '../store/event-queues';
import * as queuesStore from '../store/event-queues';
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

/**
 * Authenticates an Authorization header value; `host` is the Host header (for the subdomain check).
 * `allowWebhookBots`: upstream's allow_webhook_access (the incoming-webhook routes and POST /messages).
 */
export const authenticate = async (
  header: string | undefined,
  host: string | undefined,
  opts: { allowWebhookBots?: boolean } = {},
): Promise<Principal> => {
  if (header === undefined || header === '') throw new UnauthorizedError();
  const { email, apiKey } = parseBasicAuth(header);
  if (!API_KEY_PATTERN.test(apiKey)) throw new UnauthorizedError('Malformed API key');
  const user = await usersStore.getByApiKey(apiKey);
  if (!user || user.email.toLowerCase() !== email.toLowerCase()) throw new UnauthorizedError('Invalid API key');
  const realm = checkAccount(user, await realmsStore.get(user.realmId), host);
  if (user.isBot && user.botType === INCOMING_WEBHOOK_BOT && opts.allowWebhookBots !== true)
    throw new UnauthorizedError('This API is not available to incoming webhook bots.');
  return { user, realm };
};

/** An API-key failure of an incoming webhook's `api_key` parameter: upstream raises these as they are, without the Basic challenge. */
const webhookKeyError = (message: string, code: ErrorCode): ApiError => new ApiError(message, { statusCode: 401, code });

/**
 * Authenticates an incoming webhook as upstream's webhook_view: the `api_key` parameter (query
 * string or form body, stripped of whitespace), else HTTP Basic credentials (then with
 * `authenticate`'s answers). Any active account of an active organization may post, as upstream's
 * allow_webhook_access lets it; incoming-webhook bots are what the integrations are made for.
 */
export const authenticateWebhook = async (
  apiKey: string | undefined,
  header: string | undefined,
  host: string | undefined,
): Promise<Principal> => {
  if (apiKey === undefined) {
    if (header === undefined || header === '') throw new MissingArgumentError('api_key');
    return authenticate(header, host, { allowWebhookBots: true });
  }
  const key = apiKey.trim();
  if (!API_KEY_PATTERN.test(key)) throw webhookKeyError('Malformed API key', ErrorCode.INVALID_API_KEY);
  const user = await usersStore.getByApiKey(key);
  if (!user) throw webhookKeyError('Invalid API key', ErrorCode.INVALID_API_KEY);
  const realm = await realmsStore.get(user.realmId);
  if (!realm || realm.deactivated) throw webhookKeyError('This organization has been deactivated', ErrorCode.REALM_DEACTIVATED);
  if (!user.isActive) throw webhookKeyError('Account is deactivated', ErrorCode.USER_DEACTIVATED);
  const sub = subdomainOf(host);
  if (sub !== undefined && sub !== realm.stringId) throw new BadRequestError('Account is not associated with this subdomain');
  return { user, realm };
};

/** The organization an unauthenticated request addresses: its subdomain, else the default one. */
export const realmForHost = async (host: string | undefined): Promise<Realm | undefined> => {
  const stringId = subdomainOf(host) ?? config.defaultRealm();
  return realmsStore.getByStringId(stringId);
};

/**
 * The SHA-256 of the credentials a Basic header carries (the email lowercased), never the key
 * itself: a queue keeps that of the request that registered it (POST /register), so that its polls
 * can be authenticated by the queue item they read anyway (authenticatePoll).
 */
export const credentialOf = (header: string): string => {
  const { email, apiKey } = parseBasicAuth(header);
  return createHash('sha256').update(`${email.toLowerCase()}:${apiKey}`).digest('hex');
};

/** Who polls a queue: the owner's ids, and the queue item when authenticating read it. */
export type PollPrincipal = { owner: Pick<User, 'id' | 'realmId'>; queue?: QueueState };

/**
 * Authenticates GET /events. A queue registered with the same credentials (its `credential`)
 * authenticates its polls with the one item the poll reads anyway (eventually consistent), and the
 * organization as this process read it within `config.authCacheMs()`: no key lookup per poll.
 * Anything else (another key, another account's queue, no such queue, a queue registered before
 * queues kept credentials) goes through `authenticate`, with its errors. A deactivated account has
 * no queues (they are deleted with it); a new API key does not match the old credentials.
 */
export const authenticatePoll = async (header: string | undefined, host: string | undefined, queueId: string): Promise<PollPrincipal> => {
  let queue: QueueState | undefined;
  if (header !== undefined && header !== '') {
    const credential = credentialOf(header);
    queue = await queuesStore.get(queueId, false);
    if (queue?.credential === credential) {
      // The organization as this process read it within AUTH_CACHE_MS: a deactivation is refused within that bound.
      const realm = await realmsStore.getRecent(queue.realmId, config.authCacheMs(), nowMs());
      if (!realm || realm.deactivated) throw new UnauthorizedError('This organization has been deactivated', ErrorCode.REALM_DEACTIVATED);
      const sub = subdomainOf(host);
      if (sub === undefined || sub === realm.stringId) return { owner: { id: queue.userId, realmId: queue.realmId }, queue };
    }
  }
  const { user } = await authenticate(header, host);
  // The poll checks the queue read here against its owner, so it need not read it again.
  return { owner: user, queue };
};
