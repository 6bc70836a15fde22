// The wrapper of every server-rendered page, as lib/http/api-handler.ts is of every API endpoint:
//   header normalizer → error page (outermost onError) → body parser → the host's organization →
//   the session → CSRF check of a POST → the page,
// whose response gets the cookies the request needs: a CSRF token when it had no valid one, and
// the deletion of a session cookie that names no session. An error is a page that says what
// happened (an ApiError's status and message; anything else a logged 500).
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { SESSION_COOKIE } from '../models/session';
import type { Realm } from '../models/realm';
import { realmForHost } from '../http/auth';
import { bodyParser } from '../http/middleware/body-parser';
import { errorHandler } from '../http/middleware/error-handler';
import { RequestParams, type ParamSpec, type Values } from '../http/params';
import { requestIdOf } from '../http/request-id';
import { logRequest } from '../http/request-log';
import type { HttpResponse } from '../http/response';
import { isSecureRequest, requestCookies, setCookie } from '../http/cookies';
import { CSRF_COOKIE, csrfFailure, isValidCsrfToken, newCsrfToken } from '../http/csrf';
import { html, type SafeHtml } from './html';
import { box, CSRF_FIELD, htmlResponse, layout, type FormContext } from './page';
import { sessionOf, withViewerHost, type WebSession } from '../http/session';

type Event = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown };

/** What every page gets, an organization's or the site root's. */
export type RootPageContext = {
  event: Event;
  requestId: string;
  /** The address API Gateway saw the request come from (the login limits count per address). */
  sourceIp: string;
  /** What this response's forms need (the CSRF token). */
  form: FormContext;
  /** Declared form fields (the body, then the query string), as the API's parameters. */
  params: <S extends Record<string, ParamSpec<any>>>(spec: S) => Values<S>;
  /** A Set-Cookie value for this response (HttpOnly, SameSite=Lax, Secure behind HTTPS); `maxAgeSeconds` 0 deletes it. */
  cookie: (name: string, value: string, maxAgeSeconds?: number) => string;
  /** A page in the shared layout (the organization's name, and the signed-in person's log-out button). */
  page: (statusCode: number, title: string, content: SafeHtml, cookies?: string[]) => HttpResponse;
};

/** A page of an organization: the organization the host names, and the signed-in person. */
export type PageContext = RootPageContext & {
  /** The organization the host names (a page of an organization is served only where one is). */
  realm: Realm;
  /** The signed-in person, if any. */
  session: WebSession | undefined;
};

/** A page that explains an error: its heading, what happened, and what to do. */
export const messagePage = (
  statusCode: number,
  opts: { title: string; heading?: string; paragraphs: (string | SafeHtml)[]; realmName?: string; cookies?: string[] },
): HttpResponse =>
  htmlResponse(
    statusCode,
    layout({
      title: opts.title,
      realmName: opts.realmName,
      content: box(opts.heading ?? opts.title, html`${opts.paragraphs.map((p) => html`<p>${p}</p>`)}`),
    }),
    opts.cookies,
  );

/**
 * The 404 page of a path no page serves (the site's catch-all route, and a development-only page
 * outside development mode): the same answer whether the page never existed or is turned off.
 */
export const pageNotFound = (): HttpResponse =>
  messagePage(404, { title: 'Page not found', paragraphs: ['There is no page at this address.'] });

/** Django's CSRF failure page (403), with the reason, and what to do. */
const csrfFailurePage = (reason: string, path: string): HttpResponse =>
  messagePage(403, {
    title: 'Forbidden',
    heading: 'CSRF verification failed. Request aborted.',
    paragraphs: [
      'You are seeing this message because this site requires a CSRF cookie when submitting forms. This cookie is required for security reasons, to ensure that your browser is not being hijacked by third parties.',
      'If you have configured your browser to disable cookies, please re-enable them, at least for this site.',
      html`<a href="${path}">Reload the page</a> and submit the form again.`,
      `Reason: ${reason}`,
    ],
  });

const pageErrorHandler = () =>
  errorHandler({
    apiError: (error) => messagePage(error.statusCode, { title: 'Error', paragraphs: [error.message] }),
    internalError: () =>
      messagePage(500, { title: 'Error', heading: 'Internal server error', paragraphs: ['Something went wrong. Please try again later.'] }),
  });

const rawParams = (event: Event): Record<string, string> => {
  const fromBody = (event.body && typeof event.body === 'object' ? event.body : {}) as Record<string, string>;
  return { ...(event.queryStringParameters ?? {}), ...fromBody } as Record<string, string>;
};

const cookieName = (setCookieValue: string): string => setCookieValue.slice(0, setCookieValue.indexOf('='));

/** Adds the cookies the wrapper decided on, unless the page set the same ones itself. */
const withCookies = (response: HttpResponse, cookies: string[]): HttpResponse => {
  const own = new Set((response.cookies ?? []).map(cookieName));
  const extra = cookies.filter((c) => !own.has(cookieName(c)));
  return extra.length === 0 ? response : { ...response, cookies: [...(response.cookies ?? []), ...extra] };
};

/**
 * The middy stack of a page. With `realmRequired`, the host must name an active organization (a
 * 404 or the deactivated page otherwise) and the session is read; without, the page is the site
 * root's (creating an organization), served whatever the host, with no session.
 */
const pageCore = (realmRequired: boolean, fn: (ctx: PageContext | RootPageContext) => Promise<HttpResponse>) =>
  middy<Event, HttpResponse>({ timeoutEarlyInMillis: 0 })
    .use(httpHeaderNormalizer())
    .use(pageErrorHandler())
    .use(bodyParser())
    .handler(async (event, context) => {
      // The host the browser addressed, past the edge's CloudFront (lib/http/session.ts viewerHost).
      event.headers = withViewerHost(event.headers);
      let realm: Realm | undefined;
      if (realmRequired) {
        realm = await realmForHost(event.headers?.host);
        if (!realm) {
          return messagePage(404, {
            title: 'Organization not found',
            paragraphs: ['There is no Zulip organization hosted at this subdomain.'],
          });
        }
        if (realm.deactivated) {
          return messagePage(200, {
            title: 'Deactivated organization',
            paragraphs: [
              `The organization you are trying to join, ${realm.name}, has been deactivated.`,
              'Please contact the administrator of this server to reactivate it.',
            ],
          });
        }
      }
      const cookies = requestCookies(event);
      const session = realm && (await sessionOf(cookies[SESSION_COOKIE], realm));
      const binding = session?.tokenHash ?? '';
      const raw = rawParams(event);
      const method = event.requestContext?.http?.method ?? 'GET';
      if (method === 'POST') {
        const failure = csrfFailure(cookies[CSRF_COOKIE], raw[CSRF_FIELD], binding);
        if (failure !== undefined) return csrfFailurePage(failure, event.rawPath ?? '/');
      }
      const secure = isSecureRequest(event);
      const cookie = (name: string, value: string, maxAgeSeconds?: number) => setCookie(name, value, { secure, maxAgeSeconds });
      const existing = cookies[CSRF_COOKIE];
      const csrfToken = isValidCsrfToken(existing, binding) ? existing! : newCsrfToken(binding);
      const setCookies = [
        ...(csrfToken !== existing ? [cookie(CSRF_COOKIE, csrfToken)] : []),
        // A session cookie that names no (live) session is removed, so the browser stops sending it.
        ...(realm && cookies[SESSION_COOKIE] !== undefined && !session ? [cookie(SESSION_COOKIE, '', 0)] : []),
      ];
      const params = new RequestParams(raw);
      const form: FormContext = { csrfToken };
      const base: RootPageContext = {
        event,
        requestId: requestIdOf(context),
        sourceIp: event.requestContext?.http?.sourceIp ?? '',
        form,
        params: (spec) => params.parse(spec),
        cookie,
        page: (statusCode, title, content, pageCookies = []) =>
          htmlResponse(
            statusCode,
            layout({
              title,
              content,
              realmName: realm?.name,
              signedIn: session && { fullName: session.user.fullName, csrfToken },
            }),
            pageCookies,
          ),
      };
      return withCookies(await fn(realm ? { ...base, realm, session } : base), setCookies);
    });

/** The request log line and the Lambda signature around a page's middy stack. */
const logged = (core: ReturnType<typeof pageCore>) => {
  return async (event: APIGatewayProxyEventV2, context?: Context): Promise<HttpResponse> => {
    const started = Date.now();
    const response = await core(event as unknown as Event, context ?? ({} as Context));
    logRequest(event, context, { status: response.statusCode, started });
    return response;
  };
};

/** A page of the organization the request's host names. */
export const pageHandler = (fn: (ctx: PageContext) => Promise<HttpResponse>) => logged(pageCore(true, (ctx) => fn(ctx as PageContext)));

/** A page of the site itself, not of an organization (the new-organization page): no organization needed at the host, no session. */
export const rootPageHandler = (fn: (ctx: RootPageContext) => Promise<HttpResponse>) => logged(pageCore(false, fn));
