// Upstream's web app sends a PATCH (or DELETE, PUT) as a POST with `method=PATCH` in its
// form-encoded body (its channel.patch: desktop webviews once could not send a PATCH body), and
// upstream's rest_dispatch serves such a request as the method it names. Here API Gateway has
// already picked a function by the request's own method (the POST route's, or the fallback's), so
// that function hands a /json/ POST that tunnels another method to the function of the route for
// that method: deployed and under `npm start`, a synchronous invocation of
// `<FUNCTION_PREFIX><route name>` (lib/http/route-functions.json, generated from the routes); with
// no prefix (the handler tests), the handler of this process that runRoutesInProcess names.
// A method no route serves at the path is upstream's 405 with `allowed_methods`.
import { InvokeCommand } from '@aws-sdk/client-lambda';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { MethodNotAllowedError, PathNotFoundError } from '../errors';
import { lambdaClient } from '../store/jobs';
import type { HttpResponse } from './response';
import ROUTE_FUNCTIONS from './route-functions.json';
import { allowedMethods, matchTemplate, type RouteTable } from './route-table';
import { isJsonRoute } from './session';

const API_PREFIX = '/api/v1';
type RouteHandler = (event: APIGatewayProxyEventV2) => Promise<HttpResponse>;

/** The methods of each path, from the generated table: `{"/messages/{message_id}": ["GET", "PATCH", "DELETE"]}`. */
const TABLE: RouteTable = {};
for (const key of Object.keys(ROUTE_FUNCTIONS)) {
  const [method, path] = key.split(' ') as [string, string];
  (TABLE[path] ??= []).push(method);
}

let inProcess: ((routeName: string) => RouteHandler) | undefined;

/** The handler tests: a route's handler is a module of this process (`handlerOf` finds it by the route's name). */
export const runRoutesInProcess = (handlerOf: (routeName: string) => RouteHandler): void => {
  inProcess = handlerOf;
};

/** Calls the function of route `routeName` with `event`; a failed function is an error (500). */
const invokeRoute = async (routeName: string, event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const prefix = config.functionPrefix();
  if (prefix === undefined) {
    if (!inProcess) throw new Error(`route ${routeName}: FUNCTION_PREFIX is not set and this process runs no routes (runRoutesInProcess)`);
    return inProcess(routeName)(event);
  }
  const out = await lambdaClient().send(
    new InvokeCommand({
      FunctionName: `${prefix}${routeName}`,
      InvocationType: 'RequestResponse',
      Payload: Buffer.from(JSON.stringify(event)),
    }),
  );
  const text = Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  if (out.FunctionError) throw new Error(`route ${routeName} failed: ${text.slice(0, 500)}`);
  return JSON.parse(text) as HttpResponse;
};

/** A request as the wrapper holds it once its body is parsed: header names lower-cased, the form's fields. */
type ParsedEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown };

/**
 * The method a /json/ POST tunnels (its form-encoded `method` field, upper-cased), or undefined
 * when the request is served as it came: not /json/, not a form-encoded POST, no such field, or
 * `POST` itself.
 */
const tunnelledMethod = (event: ParsedEvent): { method: string; fields: URLSearchParams } | undefined => {
  if (!isJsonRoute(event.headers) || event.requestContext?.http?.method !== 'POST') return undefined;
  if (!/^application\/x-www-form-urlencoded\b/i.test(event.headers?.['content-type'] ?? '')) return undefined;
  if (!event.body || typeof event.body !== 'object') return undefined;
  const fields = new URLSearchParams(Object.entries(event.body as Record<string, string>));
  const method = fields.get('method')?.toUpperCase();
  return method === undefined || method === 'POST' ? undefined : { method, fields };
};

/**
 * Serves a /json/ POST that tunnels another method through the function of the route for that
 * method, or answers undefined: the request is the receiving function's own.
 */
export const dispatchTunnelled = async (event: ParsedEvent): Promise<HttpResponse | undefined> => {
  const tunnelled = tunnelledMethod(event);
  if (!tunnelled) return undefined;
  const { method, fields } = tunnelled;
  const path = (event.rawPath ?? '').slice(API_PREFIX.length);
  const route = Object.entries(ROUTE_FUNCTIONS).find(
    ([key]) => key.startsWith(`${method} `) && matchTemplate(key.slice(method.length + 1), path),
  );
  if (!route) {
    const allowed = allowedMethods(TABLE, event.rawPath ?? '');
    throw allowed === undefined ? new PathNotFoundError() : new MethodNotAllowedError(allowed);
  }
  const [key, routeName] = route;
  const template = key.slice(method.length + 1);
  fields.delete('method');
  const routeKey = `${method} ${API_PREFIX}${template}`;
  const pathParameters = matchTemplate(template, path)!;
  return invokeRoute(routeName, {
    ...(event as APIGatewayProxyEventV2),
    routeKey,
    requestContext: { ...event.requestContext, routeKey, http: { ...event.requestContext.http, method } },
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    body: fields.toString(),
    isBase64Encoded: false,
  });
};
