// A local stand-in for upstream's mobile push notification service (the push bouncer) that
// `npm start` and the tests run, in this process, as local-ses.ts runs the SES store. It speaks the
// part of upstream's remote-server protocol this service uses (zilencer's views, the OpenAPI file's
// /remotes/ paths, api/mobile-notifications) and checks it as the bouncer does: HTTP Basic
// authentication as a registered server, the required fields, organizations registered before
// their devices and notifications. It forwards nothing to FCM or APNs; it keeps what it was sent,
// which GET /__test/state lists (the tests decrypt the notifications with the device's key), and
// POST /__test/fail?server=ID&count=N makes it answer the next N protocol requests with that
// server's credentials with 503, as a bouncer that is down.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body';

/** The bouncer public key the local bouncer accepts registrations for (the app has the real one built in). */
export const LOCAL_BOUNCER_PUBLIC_KEY = 'bG9jYWwtYm91bmNlci1wdWJsaWMta2V5';

export type BouncerRequest = { endpoint: string; serverId: string; status: number };
export type BouncerState = {
  servers: { id: string; hostname: string; contactEmail: string }[];
  realms: { uuid: string; serverId: string; name: string; url: string }[];
  devices: { serverId: string; realmUuid: string; tokenId: string; encryptedPushRegistration: string }[];
  notifications: { serverId: string; realmUuid: string; pushRequests: Record<string, unknown>[] }[];
  requests: BouncerRequest[];
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
  const state: BouncerState = { servers: [], realms: [], devices: [], notifications: [], requests: [] };
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
    if (url.pathname === '/__test/reset' && req.method === 'POST') {
      failNext.clear();
      Object.assign(state, { notifications: [], requests: [] });
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
