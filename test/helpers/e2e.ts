// End-to-end tests run the service the way `npm start` does: serverless-offline behind the local
// gateway, on the run's shared DynamoDB Local and S3 store (global-setup.ts), with fresh tables and
// the development data set for each test file. Files without their own environment share their
// worker's serverless-offline (e2e-shared.ts); a file with `env` starts its own. Requests go over
// HTTP; every response passes the same checks as handler tests (api.ts responseChecks: the
// OpenAPI validation).
//
//   const service = useLocalService();
//   const result = await service.request('POST', '/dev_fetch_api_key', { params: { username } });
import { randomBytes } from 'node:crypto';
import { statSync, existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { closeClients } from '../../lib/store/client';
import { freePort } from '../../scripts/local-dynamo';
import { startLocalGateway, stopLocalGateway } from '../../scripts/local-gateway';
import { startOffline, stopProcessGroup } from '../../scripts/local-service';
import { logLinesSince, workerOffline } from './e2e-shared';
import { freshTables } from './tables';
import { basicAuth, encodeValue, responseChecks, type ApiResult, type Encoding } from './api';

// zulip-js installs the form-data package as the global FormData when it loads, and Node's fetch
// cannot send that one; keep Node's own for our requests (and load zulip-js with loadZulipJs()).
const NativeFormData = globalThis.FormData;

/** Loads the zulip-js client without letting it replace the global FormData. */
export const loadZulipJs = (): ((config: { realm: string; username: string; apiKey?: string; password?: string }) => Promise<any>) => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('zulip-js');
  } finally {
    globalThis.FormData = NativeFormData;
  }
};

/**
 * A zulip-js client logged in as a seeded user of `service`: the key comes from
 * POST /dev_fetch_api_key, fetched through zulip-js itself (which always sends Basic credentials;
 * that endpoint ignores them).
 */
export const zulipClient = async (service: Pick<E2eService, 'origin'>, email: string): Promise<any> => {
  const zulipInit = loadZulipJs();
  const anonymous = await zulipInit({ realm: service.origin, username: email, apiKey: 'placeholder' });
  const { api_key } = await anonymous.callEndpoint('/dev_fetch_api_key', 'POST', { username: email });
  return zulipInit({ realm: service.origin, username: email, apiKey: api_key });
};

/**
 * Registers an event queue for the zulip-js client `c` (`params` as zulip-js sends them: form
 * fields, so booleans and objects go as JSON text) and checks that it succeeded. Returns the
 * register answer and `poll`, which fetches the events that arrived since the last poll without
 * blocking (dont_block), checks that the fetch succeeded, and returns them without heartbeats and
 * without their `id`s.
 *
 *   const { poll } = await pollingQueue(iago, { event_types: ['reaction'] });
 *   expect(await poll()).toEqual([{ type: 'reaction', op: 'add', ... }]);
 */
export const pollingQueue = async <Event extends Record<string, unknown> = Record<string, unknown>>(
  c: any,
  params: Record<string, unknown>,
): Promise<{ registered: any; poll: () => Promise<Event[]> }> => {
  const registered = await c.queues.register(params);
  expect(registered.result).toBe('success');
  let lastEventId = registered.last_event_id as number;
  const poll = async (): Promise<Event[]> => {
    const body = await c.events.retrieve({ queue_id: registered.queue_id, last_event_id: lastEventId, dont_block: true });
    expect(body.result).toBe('success');
    if (body.events.length > 0) lastEventId = body.events[body.events.length - 1].id;
    return (body.events as Record<string, unknown>[]).filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...event }) => event as Event);
  };
  return { registered, poll };
};

/**
 * A long poll as a client makes it: GET /events for the zulip-js client `c` from `lastEventId`, and
 * again after each heartbeat (on a loaded machine a poll may reach its bound before the event it
 * waits for is sent), until events come; `first` is a poll already started. Returns the answer with
 * the events. A test that uses it allows for a poll's bound and more (90 s).
 */
export const longPoll = async (c: any, queueId: string, lastEventId: number, first?: Promise<any>): Promise<any> => {
  let body = await (first ?? c.events.retrieve({ queue_id: queueId, last_event_id: lastEventId }));
  while (body.result === 'success' && body.events.length === 1 && body.events[0].type === 'heartbeat')
    body = await c.events.retrieve({ queue_id: queueId, last_event_id: body.events[0].id });
  return body;
};

export type RequestOptions = {
  params?: Record<string, unknown>;
  /** Where the parameters go; the default is the query string for GET and a form body otherwise. */
  encoding?: Encoding;
  /** Basic credentials; `authorization` sends a header as it is. */
  auth?: { email: string; apiKey: string };
  authorization?: string;
  headers?: Record<string, string>;
};

export type E2eService = {
  /** http://localhost:<port>/api/v1 */
  readonly baseUrl: string;
  /** http://localhost:<port>, the `realm` for zulip-js. */
  readonly origin: string;
  /** serverless-offline's output so far (printed when startup fails). */
  readonly logs: string[];
  /** The DynamoDB endpoint the service uses. */
  readonly dynamodbEndpoint: string;
  /** Sends a request under /api/v1 and decodes the JSON body (null for an empty one). */
  request: (method: string, path: string, opts?: RequestOptions) => Promise<ApiResult>;
};

const STARTUP_TIMEOUT_MS = 120000;

/**
 * The service for this test file: fresh tables with the development data set, served by the
 * worker's shared serverless-offline, or by one of the file's own when it needs its own `env`.
 */
export const useLocalService = (opts: { env?: Record<string, string> } = {}): E2eService => {
  let baseUrl: string | undefined;
  let gateway: Server | undefined;
  let own: ChildProcess | undefined;
  const ownLogs: string[] = [];
  let sharedLog: { file: string; offset: number } | undefined;
  const started = (): string => {
    if (!baseUrl) throw new Error('the local service is not running (did its beforeAll fail?)');
    return baseUrl;
  };
  const logs = (): string[] => (sharedLog ? logLinesSince(sharedLog.file, sharedLog.offset) : ownLogs);

  beforeAll(async () => {
    try {
      let offlinePort: number;
      if (opts.env) {
        const tablePrefix = `e2e${process.pid}x${randomBytes(3).toString('hex')}-`;
        await freshTables(tablePrefix);
        const offline = await startOffline({
          dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT!,
          tables: { main: `${tablePrefix}main`, events: `${tablePrefix}events` },
          env: opts.env,
          log: (line) => ownLogs.push(line),
          onSpawn: (child) => (own = child),
        });
        offlinePort = offline.port;
      } else {
        const worker = await workerOffline();
        await freshTables(worker.tablePrefix, { keepEvents: true });
        sharedLog = { file: worker.logFile, offset: existsSync(worker.logFile) ? statSync(worker.logFile).size : 0 };
        offlinePort = worker.port;
      }
      const port = await freePort();
      gateway = await startLocalGateway(port, offlinePort);
      baseUrl = `http://localhost:${port}/api/v1`;
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- service output ---\n${logs().join('\n')}`, { cause: error });
    }
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    const g = gateway;
    gateway = undefined;
    baseUrl = undefined;
    if (g) await stopLocalGateway(g);
    if (own) await stopProcessGroup(own);
    own = undefined;
    closeClients();
  }, 30000);

  const request = async (method: string, path: string, req: RequestOptions = {}): Promise<ApiResult> => {
    const params = Object.fromEntries(Object.entries(req.params ?? {}).map(([k, v]) => [k, encodeValue(v)]));
    const encoding = req.encoding ?? (method === 'GET' ? 'query' : 'form');
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.auth) headers.authorization = basicAuth(req.auth.email, req.auth.apiKey);
    if (req.authorization !== undefined) headers.authorization = req.authorization;
    const url = new URL(`${started()}${path}`);
    let body: string | FormData | undefined;
    if (encoding === 'query') Object.entries(params).forEach(([k, v]) => url.searchParams.append(k, v));
    else if (encoding === 'form') body = new URLSearchParams(params).toString();
    else {
      body = new NativeFormData();
      Object.entries(params).forEach(([k, v]) => (body as FormData).append(k, v));
    }
    if (encoding === 'form') headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    const result: ApiResult = {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: text === '' ? (null as never) : JSON.parse(text),
    };
    if (text !== '') for (const check of responseChecks) check({ method, path }, result);
    return result;
  };

  return {
    get baseUrl() {
      return started();
    },
    get origin() {
      return new URL(started()).origin;
    },
    get dynamodbEndpoint() {
      return process.env.DYNAMODB_ENDPOINT!;
    },
    get logs() {
      return logs();
    },
    request,
  };
};
