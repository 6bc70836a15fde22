// End-to-end tests run the service the way `npm start` does: their own DynamoDB Local on a free
// port, fresh tables and the development data set, and serverless-offline on a free port, started
// once per test file (beforeAll) and stopped after it (afterAll). Requests go over HTTP; every
// response passes the same checks as handler tests (api.ts responseChecks: the OpenAPI validation).
//
//   const service = useLocalService();
//   const result = await service.request('POST', '/dev_fetch_api_key', { params: { username } });
import { closeClients } from '../../lib/store/client';
import { startLocalService, type LocalService } from '../../scripts/local-service';
import { basicAuth, encodeValue, responseChecks, type ApiResult, type Encoding } from './api';

// zulip-js installs the form-data package as the global FormData when it loads, and Node's fetch
// cannot send that one; keep Node's own for our requests (and load zulip-js with loadZulipJs()).
const NativeFormData = globalThis.FormData;

/** Loads the zulip-js client without letting it replace the global FormData. */
export const loadZulipJs = (): ((config: { realm: string; username: string; apiKey?: string }) => Promise<any>) => {
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

/** Starts the local service for this test file and stops it after the file's last test. */
export const useLocalService = (opts: { env?: Record<string, string> } = {}): E2eService => {
  let service: LocalService | undefined;
  const logs: string[] = [];
  const started = (): LocalService => {
    if (!service) throw new Error('the local service is not running (did its beforeAll fail?)');
    return service;
  };

  beforeAll(async () => {
    // startLocalService points this process at its own DynamoDB Local and S3 store; the handler
    // tests' harness keeps using the shared ones, so restore them once the service is up.
    const sharedEndpoint = process.env.DYNAMODB_ENDPOINT;
    const sharedS3 = process.env.S3_ENDPOINT;
    try {
      service = await startLocalService({ port: 0, log: (line) => logs.push(line), env: opts.env });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- service output ---\n${logs.join('\n')}`, { cause: error });
    } finally {
      process.env.DYNAMODB_ENDPOINT = sharedEndpoint;
      if (sharedS3 === undefined) delete process.env.S3_ENDPOINT;
      else process.env.S3_ENDPOINT = sharedS3;
      closeClients();
    }
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await service?.stop();
    service = undefined;
  }, 30000);

  const request = async (method: string, path: string, req: RequestOptions = {}): Promise<ApiResult> => {
    const params = Object.fromEntries(Object.entries(req.params ?? {}).map(([k, v]) => [k, encodeValue(v)]));
    const encoding = req.encoding ?? (method === 'GET' ? 'query' : 'form');
    const headers: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.auth) headers.authorization = basicAuth(req.auth.email, req.auth.apiKey);
    if (req.authorization !== undefined) headers.authorization = req.authorization;
    const url = new URL(`${started().baseUrl}${path}`);
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
      return started().baseUrl;
    },
    get origin() {
      return new URL(started().baseUrl).origin;
    },
    get dynamodbEndpoint() {
      return started().dynamodbEndpoint;
    },
    logs,
    request,
  };
};
