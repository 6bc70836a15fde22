// Calls a handler the way API Gateway (HTTP API, payload 2.0) would, and decodes the response.
// Parameters can be sent form-encoded, multipart or in the query string.
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as usersStore from '../../lib/store/users';
import { settleJobs } from '../../lib/store/jobs';
import type { HttpResponse } from '../../lib/http/response';
import { JSON_ROUTE_HEADER } from '../../lib/http/route-table';

export type Handler = (event: APIGatewayProxyEventV2, context?: never) => Promise<HttpResponse>;
export type Encoding = 'form' | 'multipart' | 'query';

export type ApiResult = { status: number; headers: Record<string, string>; body: Record<string, any> };

export type CallOptions = {
  method?: string;
  path?: string;
  routeKey?: string;
  pathParameters?: Record<string, string>;
  params?: Record<string, unknown>;
  encoding?: Encoding;
  /** Query-string parameters sent besides `params` (with a body encoding). */
  query?: Record<string, string>;
  /** An email (its API key is looked up), an explicit Authorization header, or nothing. */
  as?: string;
  authorization?: string;
  headers?: Record<string, string>;
  /**
   * A request of the web app's /json/ routes, as API Gateway's /json/{proxy+} route forwards it:
   * marked (JSON_ROUTE_HEADER), with the browser's cookies and, if given, its X-CSRFToken header.
   */
  json?: { cookies: Record<string, string>; csrfToken?: string };
  /** The client address API Gateway reports (requestContext.http.sourceIp); 127.0.0.1 by default. */
  sourceIp?: string;
  rawBody?: { body: string; contentType: string; isBase64Encoded?: boolean };
  /**
   * false: return as soon as the handler answers, leaving its background jobs (lib/store/jobs.ts)
   * running. By default `call` also waits for them, as if they had run promptly after the response.
   */
  settleJobs?: boolean;
};

/** Parameters are sent as strings: objects and arrays JSON-encoded, strings as they are. */
export const encodeValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const multipartBody = (params: Record<string, string>): { body: string; contentType: string } => {
  const boundary = '----testboundary1234567890';
  const parts = Object.entries(params).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
};

export const basicAuth = (email: string, apiKey: string): string => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

/** The Authorization header of a seeded user, by email. */
export const authFor = async (email: string): Promise<string> => {
  const [user] = await usersStore.listByEmail(email);
  if (!user) throw new Error(`no such user ${email}`);
  return basicAuth(user.email, user.apiKey);
};

/**
 * The headers `as` has looked up in this test file (jest loads this module afresh for each file,
 * as each file has tables of its own): a request need not make a DynamoDB call of the test's own
 * before the handler's. A key that changed since is looked up again (`call`).
 */
const headersByEmail = new Map<string, string>();

const headerFor = async (email: string): Promise<string> => {
  const known = headersByEmail.get(email);
  if (known !== undefined) return known;
  const header = await authFor(email);
  headersByEmail.set(email, header);
  return header;
};

export const buildEvent = async (opts: CallOptions): Promise<APIGatewayProxyEventV2> => {
  const method = opts.method ?? 'GET';
  const path = `/api/v1${opts.path ?? '/'}`;
  const params = Object.fromEntries(Object.entries(opts.params ?? {}).map(([k, v]) => [k, encodeValue(v)]));
  const encoding = opts.encoding ?? (method === 'GET' ? 'query' : 'form');
  const headers: Record<string, string> = { host: 'localhost:3000', ...(opts.headers ?? {}) };
  if (opts.as) headers.authorization = await headerFor(opts.as);
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  if (opts.json) {
    headers[JSON_ROUTE_HEADER] = '1';
    headers['x-forwarded-host'] = headers.host;
    headers.host = 'api.execute-api.localhost';
    if (opts.json.csrfToken !== undefined) headers['x-csrftoken'] = opts.json.csrfToken;
  }
  const cookies = Object.entries(opts.json?.cookies ?? {}).map(([k, v]) => `${k}=${v}`);
  let body: string | undefined;
  let isBase64Encoded = false;
  if (opts.rawBody) {
    body = opts.rawBody.body;
    headers['content-type'] = opts.rawBody.contentType;
    isBase64Encoded = opts.rawBody.isBase64Encoded ?? false;
  } else if (encoding === 'form' && Object.keys(params).length > 0) {
    body = new URLSearchParams(params).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (encoding === 'multipart') {
    const mp = multipartBody(params);
    body = mp.body;
    headers['content-type'] = mp.contentType;
  }
  const query = { ...(opts.query ?? {}), ...(encoding === 'query' ? params : {}) };
  return {
    version: '2.0',
    routeKey: opts.routeKey ?? `${method} ${opts.path ?? '/'}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: opts.pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: opts.sourceIp ?? '127.0.0.1', userAgent: 'jest' },
      requestId: 'test',
      routeKey: opts.routeKey ?? `${method} ${opts.path ?? '/'}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(cookies.length > 0 ? { cookies } : {}),
    body,
    isBase64Encoded,
  };
};

/** Response checks that apply to every response (see test/helpers/openapi.ts when present). */
export const responseChecks: ((opts: CallOptions, result: ApiResult) => void)[] = [];

const bodyText = (response: HttpResponse): string =>
  response.isBase64Encoded ? gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8') : response.body;

/** Calls a handler and decodes its JSON body. */
export const call = async (handler: Handler, opts: CallOptions): Promise<ApiResult> => {
  const remembered = opts.as !== undefined && opts.authorization === undefined && headersByEmail.has(opts.as) ? opts.as : undefined;
  let response = await handler(await buildEvent(opts));
  let text = bodyText(response);
  // The remembered key is no longer the account's (regenerated, or the account made again): the
  // handler refused it before doing anything, so the request is made again with the key as it is.
  if (remembered !== undefined && response.statusCode === 401 && (JSON.parse(text) as { msg?: string }).msg === 'Invalid API key') {
    headersByEmail.delete(remembered);
    response = await handler(await buildEvent(opts));
    text = bodyText(response);
  }
  if (opts.settleJobs !== false) await settleJobs();
  const result: ApiResult = { status: response.statusCode, headers: response.headers, body: JSON.parse(text) };
  for (const check of responseChecks) check(opts, result);
  return result;
};

/**
 * The options of a request to a route with path parameters, as API Gateway hands it over:
 * `call(handler, { ...atPath('GET', '/users/{user_id}/status', { user_id: 10 }), as })`.
 */
export const atPath = (
  method: string,
  template: string,
  values: Record<string, string | number>,
): Pick<CallOptions, 'method' | 'path' | 'routeKey' | 'pathParameters'> => ({
  method,
  path: template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name])),
  routeKey: `${method} ${template}`,
  pathParameters: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)])),
});

/** Asserts the success envelope and returns the body. */
export const expectSuccess = (result: ApiResult): Record<string, any> => {
  expect({ status: result.status, result: result.body.result, msg: result.body.msg }).toEqual({ status: 200, result: 'success', msg: '' });
  return result.body;
};

/** Asserts an error envelope with an exact message, status and code. */
export const expectError = (result: ApiResult, msg: string, status = 400, code = 'BAD_REQUEST'): void => {
  expect({ status: result.status, result: result.body.result, msg: result.body.msg, code: result.body.code }).toEqual({
    status,
    result: 'error',
    msg,
    code,
  });
};
