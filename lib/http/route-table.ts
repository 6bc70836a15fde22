// The methods each known path serves, for the catch-all fallback: a known path with a wrong method
// is a 405 listing the allowed methods, anything else under /api/v1 a JSON 404. The table comes
// from lib/http/route-functions.json, which `npm run docs:routes` generates from the routes (a test
// keeps it in step), bundled with the fallback: no environment variable, whose 4 KB a function's
// whole environment shares, has to carry it.
import ROUTE_FUNCTIONS from './route-functions.json';

/** `{"/drafts/{draft_id}": ["PATCH", "DELETE"]}`: paths relative to /api/v1. */
export type RouteTable = Record<string, string[]>;

const API_PREFIX = '/api/v1';

/**
 * Whether a request path is the API's (upstream's `/api/…`, and `/json/…` of its web app): an
 * answer there is the JSON envelope, an unknown path there a JSON 404. Every other path is a page's,
 * whose errors are HTML pages. The one rule of the fallbacks and of the local front (local-gateway.ts).
 */
export const isApiPath = (requestPath: string): boolean => /^\/(api|json)(\/|$)/.test(requestPath);

let deployed: RouteTable | undefined;

/** The route table of this deployment: every route under /api/v1, from route-functions.json (`"PATCH /drafts/{draft_id}"` keys). */
export const deployedRouteTable = (): RouteTable => {
  if (deployed) return deployed;
  const table: RouteTable = {};
  for (const key of Object.keys(ROUTE_FUNCTIONS)) {
    const [method, path] = key.split(' ') as [string, string];
    (table[path] ??= []).push(method);
  }
  return (deployed = table);
};

/**
 * The path parameters of `path` (relative to /api/v1) under a route's `template`, as API Gateway
 * hands them over (the segments as sent), or undefined when the template does not match.
 */
export const matchTemplate = (template: string, path: string): Record<string, string> | undefined => {
  const want = template.split('/');
  const got = path.split('/');
  // A greedy last segment (`{filename+}`) takes the rest of the path.
  const greedy = /^\{.+\+\}$/.test(want[want.length - 1] ?? '');
  if (greedy ? got.length < want.length : want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const name = /^\{([^}+]+)\+?\}$/.exec(segment)?.[1];
    if (name === undefined) {
      if (segment !== got[i]) return undefined;
    } else if (got[i] === '') return undefined;
    else params[name] = greedy && i === want.length - 1 ? got.slice(i).join('/') : got[i]!;
  }
  return params;
};

/**
 * The methods allowed at a request path (with the /api/v1 prefix), or undefined for an unknown
 * path. Every template that matches contributes its methods (`/users/me/presence` matches both
 * itself and `/users/{user_id_or_email}/presence`); HEAD is allowed wherever GET is, as upstream.
 */
export const allowedMethods = (table: RouteTable, requestPath: string): string[] | undefined => {
  if (!requestPath.startsWith(`${API_PREFIX}/`)) return undefined;
  const path = requestPath.slice(API_PREFIX.length);
  const methods = Object.entries(table)
    .filter(([template]) => matchTemplate(template, path) !== undefined)
    .flatMap(([, list]) => list);
  if (methods.length === 0) return undefined;
  const unique = [...new Set(methods)];
  const get = unique.indexOf('GET');
  return get >= 0 && !unique.includes('HEAD') ? [...unique.slice(0, get + 1), 'HEAD', ...unique.slice(get + 1)] : unique;
};

/**
 * The header that marks a request of the web app's `/json/…` routes once it reaches the
 * `/api/v1/…` route that serves it: API Gateway's `/json/{proxy+}` route sets it (serverless.yml,
 * with the viewer's Host in X-Forwarded-Host), the local gateway (scripts/local-gateway.ts) does the
 * same. Such a request is authenticated by its session cookie and CSRF token instead of an API key
 * (lib/http/session.ts). A client that sets it on an /api/v1/ request itself gets no more than
 * /json/ gives it.
 */
export const JSON_ROUTE_HEADER = 'x-zulip-json-route';

/** The `/api/v1/…` path that serves a `/json/…` path, or undefined for any other path. */
export const apiPathOfJsonPath = (path: string): string | undefined =>
  /^\/json\//.test(path) ? `${API_PREFIX}/${path.slice(6)}` : undefined;
