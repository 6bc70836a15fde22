// An Application Load Balancer's Lambda event, read as API Gateway's payload 2.0, and the answer
// given back in the load balancer's shape: the long-poll's edge (`--param eventsEdge=cloudfront`,
// edge/index.js) sends GET and DELETE /api/v1/events and /json/events through an ALB, whose
// target the same functions are. What differs from API Gateway's event (AWS's "Lambda functions
// as targets", read 2026-11): `httpMethod` and `path` instead of `requestContext.http` and
// `rawPath`; the query string's values as sent (still percent-encoded, `+` not a space); no route
// key; no request id (the ALB's X-Amzn-Trace-Id names the request); no `cookies` in the answer,
// whose headers are single strings; an answer of at most 1 MB.
import { STATUS_CODES } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { JSON_ROUTE_HEADER } from './route-table';
import type { HttpResponse } from './response';

export type AlbEvent = {
  requestContext: { elb: { targetGroupArn: string } };
  httpMethod: string;
  path: string;
  queryStringParameters?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | null;
  isBase64Encoded?: boolean;
};

export type AlbResponse = {
  statusCode: number;
  statusDescription: string;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
};

/**
 * The largest events answer sent through the load balancer: its limit on a Lambda target's
 * response is 1 MB, the JSON body and its envelope included, so a batch stays well below it.
 */
export const ALB_BATCH_BYTES = 900_000;

/** Whether `event` came from an Application Load Balancer (also once read as payload 2.0 by fromAlb). */
export const viaAlb = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && (event as { requestContext?: { elb?: unknown } }).requestContext?.elb !== undefined;

/**
 * The ALB's event as API Gateway's payload 2.0, as the API's route would have handed it: a
 * `/json/…` path becomes its `/api/v1/…` route marked as the web app's (as the HTTP API's /json/
 * hop marks it: functions/routes.js jsonRouteResources), with the browser's Host, and a mark sent
 * by a client on any other path is dropped.
 */
export const fromAlb = (event: AlbEvent): APIGatewayProxyEventV2 => {
  const method = event.httpMethod.toUpperCase();
  const json = /^\/json(\/|$)/.test(event.path);
  const rawPath = json ? event.path.replace(/^\/json/, '/api/v1') : event.path;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
  delete headers[JSON_ROUTE_HEADER];
  if (json) {
    headers[JSON_ROUTE_HEADER] = '1';
    if (headers.host !== undefined) headers['x-forwarded-host'] = headers.host;
  }
  // The values as sent, still percent-encoded: URLSearchParams decodes them as a browser does.
  const rawQueryString = Object.entries(event.queryStringParameters ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const query = Object.fromEntries(new URLSearchParams(rawQueryString));
  const requestId = headers['x-amzn-trace-id'] ?? '';
  return {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: query } : {}),
    body: event.body ?? undefined,
    isBase64Encoded: event.isBase64Encoded ?? false,
    requestContext: {
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: headers['x-forwarded-for']?.split(',')[0]?.trim() ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: `${method} ${rawPath}`,
      elb: event.requestContext.elb,
    },
  } as unknown as APIGatewayProxyEventV2;
};

/** A payload 2.0 answer in the ALB's shape: a status line's text, cookies as Set-Cookie (the events routes set none but one). */
export const toAlb = (response: HttpResponse): AlbResponse => {
  const headers = { ...response.headers };
  const [cookie] = response.cookies ?? [];
  if (cookie !== undefined) headers['Set-Cookie'] = cookie;
  return {
    statusCode: response.statusCode,
    statusDescription: `${response.statusCode} ${STATUS_CODES[response.statusCode] ?? 'Status'}`,
    headers,
    body: response.body,
    isBase64Encoded: response.isBase64Encoded ?? false,
  };
};

/**
 * The longest prefix of `items` whose JSON takes at most `maxBytes` (at least the first item): an
 * events batch cut to what the load balancer may answer. The rest stay in the queue, which keeps
 * every event until the client acknowledges it, and come with the next poll.
 */
export const prefixWithin = <T>(items: T[], maxBytes: number): T[] => {
  let bytes = 2;
  let count = 0;
  for (const item of items) {
    bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
    if (bytes > maxBytes && count > 0) break;
    count += 1;
  }
  return count === items.length ? items : items.slice(0, count);
};
