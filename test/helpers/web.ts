// Calls the server-rendered pages' handlers the way API Gateway would (payload 2.0, the page at
// the site root, cookies in `event.cookies`), with a cookie jar, as a browser without JavaScript:
//
//   const browser = new PageClient();
//   await browser.get('/login/');
//   const page = await browser.submit('/login/', { username, password });   // with the page's CSRF token
//   expect(page.status).toBe(302);
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResponse } from '../../lib/http/response';
import { devPassword } from '../../lib/passwords';
import { buildEvent } from './api';

type Handler = (event: APIGatewayProxyEventV2, context?: never) => Promise<HttpResponse>;

const ROOT = path.join(__dirname, '..', '..');

/** The path parameters of `pagePath` by a route's template (`/join/{confirmation_key}/`), or undefined when it does not match. */
const matchRoute = (template: string, pagePath: string): Record<string, string> | undefined => {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]*)';
  });
  const m = new RegExp(`^${pattern}$`).exec(pagePath);
  return m ? Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) : undefined;
};

/** The handler of a page route, from functions/web/routes.json, with the path's parameters. */
const handlerOf = (method: string, pagePath: string): { handler: Handler; pathParameters: Record<string, string> } => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const routes = [...require(path.join(ROOT, 'functions/web/routes.json'))] as { method: string; path: string; handler: string }[];
  for (const route of routes) {
    if (route.method !== (method === 'HEAD' ? 'GET' : method)) continue;
    const pathParameters = matchRoute(route.path, pagePath);
    if (!pathParameters) continue;
    const [modulePath, exportName] = route.handler.split(/\.(?=[^.]+$)/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return { handler: require(path.join(ROOT, modulePath))[exportName], pathParameters };
  }
  throw new Error(`no page route ${method} ${pagePath}`);
};

export type PageResult = {
  status: number;
  headers: Record<string, string>;
  /** The Set-Cookie values of the response. */
  setCookies: string[];
  body: string;
  /** The body with its layout whitespace squashed (markupOf), for comparing markup. */
  markup: string;
  /** The hidden CSRF field's value in the page, if it has a form. */
  csrfToken: string | undefined;
};

export type PageRequest = {
  method?: string;
  form?: Record<string, string>;
  cookies?: Record<string, string>;
  host?: string;
  sourceIp?: string;
  headers?: Record<string, string>;
};

/** One request to a page, without a cookie jar. */
export const callPage = async (pagePath: string, req: PageRequest = {}): Promise<PageResult> => {
  const method = req.method ?? (req.form ? 'POST' : 'GET');
  const event = await buildEvent({
    method,
    params: req.form,
    encoding: method === 'GET' ? 'query' : 'form',
    sourceIp: req.sourceIp,
    headers: { ...(req.host ? { host: req.host } : {}), ...(req.headers ?? {}) },
  });
  const cookieList = Object.entries(req.cookies ?? {}).map(([k, v]) => `${k}=${v}`);
  const { handler, pathParameters } = handlerOf(method, pagePath);
  const pageEvent: APIGatewayProxyEventV2 = {
    ...event,
    routeKey: `${method} ${pagePath}`,
    rawPath: pagePath,
    requestContext: { ...event.requestContext, routeKey: `${method} ${pagePath}`, http: { ...event.requestContext.http, path: pagePath } },
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    ...(cookieList.length > 0 ? { cookies: cookieList } : {}),
  };
  const response = await handler(pageEvent);
  const body = response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    setCookies: response.cookies ?? [],
    body,
    markup: markupOf(body),
    csrfToken: /name="csrfmiddlewaretoken" value="([^"]*)"/.exec(body)?.[1],
  };
};

/** A browser without JavaScript: keeps the cookies pages set and submits forms with the page's CSRF token. */
export class PageClient {
  readonly cookies: Record<string, string> = {};
  private lastCsrfToken: string | undefined;

  constructor(private readonly opts: { host?: string; sourceIp?: string } = {}) {}

  private keep(result: PageResult): PageResult {
    for (const line of result.setCookies) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (attributes.includes('Max-Age=0')) delete this.cookies[name];
      else this.cookies[name] = value;
    }
    if (result.csrfToken !== undefined) this.lastCsrfToken = result.csrfToken;
    return result;
  }

  async get(pagePath: string): Promise<PageResult> {
    return this.keep(await callPage(pagePath, { method: 'GET', cookies: this.cookies, ...this.opts }));
  }

  /** POSTs a form with the CSRF token of the last page that had one (as the browser would send it). */
  async submit(pagePath: string, form: Record<string, string> = {}): Promise<PageResult> {
    const fields = this.lastCsrfToken === undefined ? form : { csrfmiddlewaretoken: this.lastCsrfToken, ...form };
    return this.keep(await callPage(pagePath, { method: 'POST', form: fields, cookies: this.cookies, ...this.opts }));
  }

  /** What the web app sends with a /json/ request (test/helpers/api.ts `json`): this browser's cookies and the last page's CSRF token. */
  jsonSession(): { cookies: Record<string, string>; csrfToken?: string } {
    return { cookies: { ...this.cookies }, csrfToken: this.lastCsrfToken };
  }

  /** Signs in on /login/ (GET, then POST) and expects the redirect to the account page. */
  async logIn(username: string, password: string): Promise<void> {
    await this.get('/login/');
    const result = await this.submit('/login/', { username, password });
    if (result.status !== 302) throw new Error(`login of ${username} failed: ${result.status} ${result.body}`);
  }
}

/** A browser signed in as a development account, with the CSRF token of a page it then loaded (for /json/ requests). */
export const signedInBrowser = async (email: string): Promise<PageClient> => {
  const browser = new PageClient();
  await browser.logIn(email, devPassword(email));
  await browser.get('/accounts/');
  return browser;
};

/**
 * Markup with its layout whitespace squashed: runs of whitespace become one space, none is kept
 * inside a tag before its end, and a void element's ` />` is `>`, so that tests do not depend on how
 * Prettier lays out the pages' templates.
 */
export const markupOf = (body: string): string =>
  body
    .replace(/\s+/g, ' ')
    .replace(/\s*\/?>/g, '>')
    .replace(/>\s+</g, '><');

/** The text of a page: tags removed, entities decoded, whitespace collapsed. */
export const pageText = (body: string): string =>
  body
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
