// A local stand-in for upstream's mobile push notification service (the push bouncer) that
// `npm start` and the tests run, in this process, as local-ses.ts runs the SES store. It speaks the
// part of upstream's remote-server protocol this service uses (zilencer's views, the OpenAPI file's
// /remotes/ paths, api/mobile-notifications) and checks it as the bouncer does: HTTP Basic
// authentication as a registered server, the required fields, organizations registered before
// their devices and notifications. It also speaks the legacy protocol of unencrypted notifications
// (remotes/push/register, unregister, notify, test_notification: zilencer's
// register_remote_push_device and its siblings), checked the same way. It forwards nothing to FCM
// or APNs; it keeps what it was sent, which GET /__test/state lists (the tests decrypt the
// notifications with the device's key, and read the legacy payloads as they are), and
// POST /__test/fail?server=ID&count=N makes it answer the next N protocol requests with that
// server's credentials with 503, as a bouncer that is down; POST /__test/forget?server=ID&token=T
// drops a legacy token, as the bouncer does when FCM or APNs says it is gone.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { legacyTokenProblem } from '../lib/models/push-legacy';
import { readBody } from './http-body';

/** The bouncer public key the local bouncer accepts registrations for (the app has the real one built in). */
export const LOCAL_BOUNCER_PUBLIC_KEY = 'bG9jYWwtYm91bmNlci1wdWJsaWMta2V5';

export type BouncerRequest = { endpoint: string; serverId: string; status: number };
export type BouncerState = {
  servers: { id: string; hostname: string; contactEmail: string }[];
  realms: { uuid: string; serverId: string; name: string; url: string }[];
  devices: { serverId: string; realmUuid: string; tokenId: string; encryptedPushRegistration: string }[];
  notifications: { serverId: string; realmUuid: string; pushRequests: Record<string, unknown>[] }[];
  /** Legacy tokens (upstream's RemotePushDeviceToken; token_kind 1 APNs, 2 FCM). */
  legacyTokens: LegacyToken[];
  /** Legacy notifications, with the registered tokens each went to. */
  legacyNotifications: {
    serverId: string;
    realmUuid: string | null;
    userUuid: string | null;
    userId: number | null;
    gcmPayload: Record<string, unknown>;
    apnsPayload: Record<string, unknown>;
    gcmOptions: Record<string, unknown>;
    androidTokens: string[];
    appleTokens: string[];
  }[];
  /** Legacy test notifications (remotes/push/test_notification). */
  legacyTests: { serverId: string; token: string; tokenKind: number; basePayload: Record<string, unknown> }[];
  requests: BouncerRequest[];
};

export type LegacyToken = {
  serverId: string;
  realmUuid: string | null;
  userUuid: string | null;
  userId: number | null;
  token: string;
  tokenKind: number;
  iosAppId: string | null;
};

export type LocalBouncer = { url: string; stop: () => Promise<void> };

class BouncerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'BAD_REQUEST',
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Starts the local bouncer on a free port of 127.0.0.1. */
export const startLocalBouncer = async (): Promise<LocalBouncer> => {
  const keys = new Map<string, string>();
  const state: BouncerState = {
    servers: [],
    realms: [],
    devices: [],
    notifications: [],
    legacyTokens: [],
    legacyNotifications: [],
    legacyTests: [],
    requests: [],
  };
  /** Protocol requests still to fail, by the server id of their credentials. */
  const failNext = new Map<string, number>();

  /** The server id a request's credentials name (checked or not). */
  const claimedServer = (req: IncomingMessage): string => {
    const match = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString() : '';
    return decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : '';
  };

  /** The registered server the request authenticates as (upstream's validate_remote_server). */
  const authenticate = (req: IncomingMessage): string => {
    const match = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (!match) throw new BouncerError(401, 'Missing authorization', 'UNAUTHORIZED');
    const decoded = Buffer.from(match[1], 'base64').toString();
    const [id, key] = [decoded.slice(0, decoded.indexOf(':')), decoded.slice(decoded.indexOf(':') + 1)];
    if (!keys.has(id))
      throw new BouncerError(
        401,
        `Zulip server auth failure: ${id} is not registered -- did you run \`manage.py register_server\`?`,
        'INVALID_ZULIP_SERVER',
      );
    if (keys.get(id) !== key)
      throw new BouncerError(401, `Zulip server auth failure: key does not match role ${id}`, 'INVALID_ZULIP_SERVER');
    return id;
  };

  const field = (form: URLSearchParams, name: string): string => {
    const value = form.get(name);
    if (value === null) throw new BouncerError(400, `Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING');
    return value;
  };

  const realmOf = (serverId: string, uuid: unknown) => {
    const realm = state.realms.find((r) => r.uuid === uuid && r.serverId === serverId);
    if (!realm) throw new BouncerError(403, 'Organization not registered', 'MISSING_REMOTE_REALM');
    return realm;
  };

  /** A form field upstream declares Json[int]: absent is null. */
  const jsonIntField = (form: URLSearchParams, name: string): number | null => {
    const value = form.get(name);
    if (value === null) return null;
    const parsed: unknown = JSON.parse(value);
    if (!Number.isInteger(parsed)) throw new BouncerError(400, `${name} is not an integer`);
    return parsed as number;
  };

  /** A legacy registration's token and kind, as upstream's register and unregister check them. */
  const legacyTokenOf = (form: URLSearchParams): { token: string; tokenKind: number } => {
    const token = field(form, 'token').trim();
    if (token === '') throw new BouncerError(400, 'token cannot be blank');
    const tokenKind = jsonIntField(form, 'token_kind');
    if (tokenKind === null) throw new BouncerError(400, "Missing 'token_kind' argument", 'REQUEST_VARIABLE_MISSING');
    return { token, tokenKind };
  };

  /** Upstream's validate_bouncer_token_request: the kind, then validate_token. */
  const checkLegacyToken = (token: string, kind: number): void => {
    if (kind !== 1 && kind !== 2) throw new BouncerError(400, 'Invalid token type');
    const problem = legacyTokenProblem(token, kind === 1 ? 'apns' : 'fcm');
    if (problem) throw new BouncerError(400, problem);
  };

  /** A realm_uuid a legacy request names: unknown ones are accepted (upstream only logs them), another server's are not. */
  const checkLegacyRealm = (serverId: string, uuid: string | null): void => {
    const realm = uuid === null ? undefined : state.realms.find((r) => r.uuid === uuid);
    if (realm && realm.serverId !== serverId)
      throw new BouncerError(403, 'Organization registered to another server', 'REMOTE_REALM_SERVER_MISMATCH_ERROR');
  };

  /** Upstream's UserPushIdentityCompat.filter_q: a registration by the user's uuid, or by their id. */
  const ofUser = (serverId: string, userUuid: string | null, userId: number | null) => (t: LegacyToken) =>
    t.serverId === serverId && ((userUuid !== null && t.userUuid === userUuid) || (userId !== null && t.userId === userId));

  const endpoints: Record<string, (req: IncomingMessage, body: string) => Record<string, unknown>> = {
    'server/register': (_req, body) => {
      const form = new URLSearchParams(body);
      const id = field(form, 'zulip_org_id');
      const key = field(form, 'zulip_org_key');
      const hostname = field(form, 'hostname');
      const contactEmail = field(form, 'contact_email');
      if (!UUID.test(id)) throw new BouncerError(400, 'Invalid UUID');
      if (key.length !== 64) throw new BouncerError(400, 'zulip_org_key is not of expected length');
      if (keys.has(id) && keys.get(id) !== key)
        throw new BouncerError(401, `Zulip server auth failure: key does not match role ${id}`, 'INVALID_ZULIP_SERVER');
      const created = !keys.has(id);
      keys.set(id, key);
      state.servers = [...state.servers.filter((s) => s.id !== id), { id, hostname, contactEmail }];
      return { created };
    },
    'server/analytics': (req, body) => {
      const serverId = authenticate(req);
      const form = new URLSearchParams(body);
      for (const name of ['realm_counts', 'installation_counts', 'realms']) JSON.parse(field(form, name));
      const realms = JSON.parse(field(form, 'realms')) as Record<string, unknown>[];
      const answer: Record<string, unknown> = {};
      for (const realm of realms) {
        for (const name of ['id', 'host', 'url', 'date_created', 'deactivated', 'uuid', 'uuid_owner_secret'])
          if (!(name in realm)) throw new BouncerError(400, `realms[] is missing ${name}`);
        if (!UUID.test(String(realm.uuid))) throw new BouncerError(400, 'Invalid UUID');
        state.realms = [
          ...state.realms.filter((r) => r.uuid !== realm.uuid),
          { uuid: String(realm.uuid), serverId, name: String(realm.name ?? ''), url: String(realm.url) },
        ];
        answer[String(realm.uuid)] = { can_push: true, expected_end_timestamp: null };
      }
      return { realms: answer };
    },
    'push/e2ee/register': (req, body) => {
      const serverId = authenticate(req);
      const form = new URLSearchParams(body);
      const realmUuid = field(form, 'realm_uuid');
      const tokenId = field(form, 'token_id');
      const encrypted = field(form, 'encrypted_push_registration');
      const publicKey = field(form, 'bouncer_public_key');
      realmOf(serverId, realmUuid);
      if (publicKey !== LOCAL_BOUNCER_PUBLIC_KEY) throw new BouncerError(400, 'Invalid bouncer_public_key', 'INVALID_BOUNCER_PUBLIC_KEY');
      if (encrypted === '' || !BASE64.test(encrypted)) throw new BouncerError(400, 'Invalid encrypted_push_registration');
      if (!BASE64.test(tokenId)) throw new BouncerError(400, 'Invalid token_id');
      state.devices = [
        ...state.devices.filter((d) => !(d.serverId === serverId && d.realmUuid === realmUuid && d.tokenId === tokenId)),
        { serverId, realmUuid, tokenId, encryptedPushRegistration: encrypted },
      ];
      return {};
    },
    'push/register': (req, body) => {
      const serverId = authenticate(req);
      const form = new URLSearchParams(body);
      const { token, tokenKind } = legacyTokenOf(form);
      const userId = jsonIntField(form, 'user_id');
      const userUuid = form.get('user_uuid');
      const realmUuid = form.get('realm_uuid');
      const iosAppId = form.get('ios_app_id');
      if (iosAppId !== null && !/^[.a-zA-Z0-9-]+$/.test(iosAppId)) throw new BouncerError(400, 'ios_app_id has invalid format');
      checkLegacyToken(token, tokenKind);
      if (tokenKind === 1 && iosAppId === null) throw new BouncerError(400, 'Missing ios_app_id');
      if (userId === null && userUuid === null) throw new BouncerError(400, 'Missing user_id or user_uuid');
      checkLegacyRealm(serverId, realmUuid);
      // With both, the registration is by uuid, replacing one by id (as upstream's).
      const registration: LegacyToken = {
        serverId,
        realmUuid,
        userUuid,
        userId: userUuid === null ? userId : null,
        token,
        tokenKind,
        iosAppId,
      };
      const same = (t: LegacyToken) =>
        t.serverId === serverId && t.token === token && t.tokenKind === tokenKind && (t.userId === userId || t.userUuid === userUuid);
      if (!state.legacyTokens.some((t) => same(t) && t.userUuid === registration.userUuid && t.userId === registration.userId))
        state.legacyTokens = [...state.legacyTokens.filter((t) => !same(t)), registration];
      return {};
    },
    'push/unregister': (req, body) => {
      const serverId = authenticate(req);
      const form = new URLSearchParams(body);
      const { token, tokenKind } = legacyTokenOf(form);
      checkLegacyToken(token, tokenKind);
      const mine = ofUser(serverId, form.get('user_uuid'), jsonIntField(form, 'user_id'));
      const matches = (t: LegacyToken) => mine(t) && t.token === token && t.tokenKind === tokenKind;
      if (!state.legacyTokens.some(matches)) throw new BouncerError(400, 'Token does not exist');
      state.legacyTokens = state.legacyTokens.filter((t) => !matches(t));
      return {};
    },
    'push/notify': (req, body) => {
      const serverId = authenticate(req);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BouncerError(400, 'Expected a JSON body');
      const p = JSON.parse(body) as Record<string, unknown>;
      const allowed = [
        'user_id',
        'user_uuid',
        'realm_uuid',
        'gcm_payload',
        'apns_payload',
        'gcm_options',
        'android_devices',
        'apple_devices',
      ];
      for (const key of Object.keys(p))
        if (!allowed.includes(key)) throw new BouncerError(400, `Argument "${key}" at request["${key}"] is unexpected`);
      const userId = typeof p.user_id === 'number' ? p.user_id : null;
      const userUuid = typeof p.user_uuid === 'string' ? p.user_uuid : null;
      const realmUuid = typeof p.realm_uuid === 'string' ? p.realm_uuid : null;
      if (userId === null && userUuid === null) throw new BouncerError(400, 'Missing user_id or user_uuid');
      checkLegacyRealm(serverId, realmUuid);
      const dict = (name: string) => {
        const value = p[name] ?? {};
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BouncerError(400, `${name} is not a dict`);
        return value as Record<string, unknown>;
      };
      const strings = (name: string) => {
        const value = p[name] ?? [];
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
          throw new BouncerError(400, `${name} is not a list of strings`);
        return value as string[];
      };
      const [gcmPayload, apnsPayload, gcmOptions] = [dict('gcm_payload'), dict('apns_payload'), dict('gcm_options')];
      // Upstream's parse_gcm_options.
      const { priority, ...otherOptions } = gcmOptions;
      if (priority !== undefined && priority !== 'normal' && priority !== 'high')
        throw new BouncerError(400, `Invalid GCM option to bouncer: priority ${JSON.stringify(priority)}`);
      if (Object.keys(otherOptions).length > 0)
        throw new BouncerError(400, `Invalid GCM options to bouncer: ${JSON.stringify(otherOptions)}`);
      const mine = state.legacyTokens.filter(ofUser(serverId, userUuid, userId));
      const androidTokens = mine.filter((t) => t.tokenKind === 2).map((t) => t.token);
      const appleTokens = mine.filter((t) => t.tokenKind === 1).map((t) => t.token);
      state.legacyNotifications.push({
        serverId,
        realmUuid,
        userUuid,
        userId,
        gcmPayload,
        apnsPayload,
        gcmOptions,
        androidTokens,
        appleTokens,
      });
      const known = realmUuid === null ? undefined : state.realms.find((r) => r.uuid === realmUuid);
      return {
        total_android_devices: androidTokens.length,
        total_apple_devices: appleTokens.length,
        // The tokens the server believes registered that the bouncer does not have (upstream's get_deleted_devices).
        deleted_devices: {
          android_devices: strings('android_devices').filter((t) => !androidTokens.includes(t)),
          apple_devices: strings('apple_devices').filter((t) => !appleTokens.includes(t)),
        },
        realm: known ? { can_push: true, expected_end_timestamp: null } : null,
      };
    },
    'push/test_notification': (req, body) => {
      const serverId = authenticate(req);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BouncerError(400, 'Expected a JSON body');
      const p = JSON.parse(body) as Record<string, unknown>;
      const allowed = ['token', 'token_kind', 'user_id', 'user_uuid', 'realm_uuid', 'base_payload'];
      for (const key of Object.keys(p))
        if (!allowed.includes(key)) throw new BouncerError(400, `Argument "${key}" at request["${key}"] is unexpected`);
      for (const [name, type] of [
        ['token', 'string'],
        ['token_kind', 'number'],
        ['user_id', 'number'],
        ['user_uuid', 'string'],
        ['base_payload', 'object'],
      ])
        if (typeof p[name] !== type) throw new BouncerError(400, `request["${name}"] field is missing or invalid`);
      checkLegacyRealm(serverId, typeof p.realm_uuid === 'string' ? p.realm_uuid : null);
      const mine = ofUser(serverId, p.user_uuid as string, p.user_id as number);
      if (!state.legacyTokens.some((t) => mine(t) && t.token === p.token && t.tokenKind === p.token_kind))
        throw new BouncerError(400, 'Device not recognized by the push bouncer', 'INVALID_REMOTE_PUSH_DEVICE_TOKEN');
      state.legacyTests.push({
        serverId,
        token: p.token as string,
        tokenKind: p.token_kind as number,
        basePayload: p.base_payload as Record<string, unknown>,
      });
      return {};
    },
    'push/e2ee/notify': (req, body) => {
      const serverId = authenticate(req);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BouncerError(400, 'Expected a JSON body');
      const parsed = JSON.parse(body) as { realm_uuid?: unknown; push_requests?: unknown };
      realmOf(serverId, parsed.realm_uuid);
      if (!Array.isArray(parsed.push_requests)) throw new BouncerError(400, 'push_requests is not a list');
      let android = 0;
      let apple = 0;
      for (const request of parsed.push_requests as Record<string, unknown>[]) {
        const payload = request.payload as Record<string, unknown> | undefined;
        if (typeof request.token_id !== 'string' || !BASE64.test(request.token_id)) throw new BouncerError(400, 'Invalid token_id');
        if (
          !payload ||
          !Number.isInteger(payload.push_key_id) ||
          typeof payload.encrypted_data !== 'string' ||
          !BASE64.test(payload.encrypted_data)
        )
          throw new BouncerError(400, 'Invalid payload');
        if (request.fcm_priority !== undefined) android += 1;
        else if (request.http_headers !== undefined) apple += 1;
        else throw new BouncerError(400, 'A push request needs fcm_priority or http_headers');
      }
      state.notifications.push({
        serverId,
        realmUuid: String(parsed.realm_uuid),
        pushRequests: parsed.push_requests as Record<string, unknown>[],
      });
      return { android_successfully_sent_count: android, apple_successfully_sent_count: apple };
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://bouncer');
    const body = (await readBody(req)).toString();
    if (url.pathname === '/__test/state' && req.method === 'GET') return send(res, 200, state);
    if (url.pathname === '/__test/fail' && req.method === 'POST') {
      failNext.set(url.searchParams.get('server') ?? '', Number(url.searchParams.get('count') ?? 1));
      return send(res, 200, { result: 'success' });
    }
    if (url.pathname === '/__test/forget' && req.method === 'POST') {
      // As when FCM or APNs says a legacy token is gone: the bouncer drops it.
      const [server, token] = [url.searchParams.get('server'), url.searchParams.get('token')];
      state.legacyTokens = state.legacyTokens.filter((t) => !(t.serverId === server && t.token === token));
      return send(res, 200, { result: 'success' });
    }
    if (url.pathname === '/__test/reset' && req.method === 'POST') {
      failNext.clear();
      Object.assign(state, { notifications: [], legacyNotifications: [], legacyTests: [], requests: [] });
      return send(res, 200, { result: 'success' });
    }
    const endpoint = url.pathname.startsWith('/api/v1/remotes/') ? url.pathname.slice('/api/v1/remotes/'.length) : undefined;
    const run = endpoint === undefined ? undefined : endpoints[endpoint];
    const record = (status: number) => state.requests.push({ endpoint: endpoint ?? url.pathname, serverId: claimedServer(req), status });
    if (!run || req.method !== 'POST') {
      record(404);
      return send(res, 404, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    }
    const claimed = claimedServer(req);
    if ((failNext.get(claimed) ?? 0) > 0) {
      failNext.set(claimed, failNext.get(claimed)! - 1);
      record(503);
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>Service Unavailable</body></html>');
      return;
    }
    try {
      const data = run(req, body);
      record(200);
      send(res, 200, { result: 'success', msg: '', ...data });
    } catch (error) {
      const e = error instanceof BouncerError ? error : new BouncerError(400, `Malformed request: ${(error as Error).message}`);
      record(e.status);
      send(res, e.status, { result: 'error', msg: e.message, code: e.code });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { result: 'error', msg: String(error) }));
  });
  // Node closes an idle kept-alive connection after 5 s, and fetch may reuse it at that moment on a
  // loaded machine (ECONNRESET, seen once in job-faults): idle connections stay open 30 s here.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      (stopped ??= (async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })()),
  };
};
