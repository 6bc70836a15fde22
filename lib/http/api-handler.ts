// The endpoint wrapper every function uses. It fixes the middleware order once:
//   header normalizer → error handler (outermost onError) → body parser → authentication,
// then the handler, whose returned object becomes the success envelope, with the request keys it
// did not read listed in ignored_parameters_unsupported. One JSON log line per request.
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { PathNotFoundError } from '../errors';
import type { UploadedFile } from '../models/attachment';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { fromAlb, toAlb, viaAlb, type AlbEvent, type AlbResponse } from './alb';
import { authenticate, realmForHost } from './auth';
import { authenticateJsonRequest, hasSessionCookie, isJsonRoute, withViewerHost } from './session';
import { dispatchTunnelled } from './method-override';
import { bodyParser } from './middleware/body-parser';
import { errorHandler } from './middleware/error-handler';
import { RequestParams, type ParamSpec, type Values } from './params';
import { requestIdOf } from './request-id';
import { logRequest } from './request-log';
import { compressIfAccepted, jsonSuccess, type HttpResponse } from './response';

type Event = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown; rawBody?: string; uploadedFiles?: UploadedFile[] };

type BaseContext = {
  event: Event;
  /** The Lambda context (absent when a test calls the handler without one). */
  context: Context | undefined;
  requestId: string;
  /** Declared parameters from the body and the query string. */
  params: <S extends Record<string, ParamSpec<any>>>(spec: S) => Values<S>;
  /** Whether the request carried a parameter (body or query string). */
  hasParam: (name: string) => boolean;
  /** A path parameter that must be a non-negative integer (else the path does not exist: 404). */
  pathInt: (name: string) => number;
  /** A path parameter as sent (URL-decoded). */
  pathString: (name: string) => string;
  /** The file parts of a multipart body (not parameters: upstream's request.FILES). */
  files: UploadedFile[];
};
export type AuthedContext = BaseContext & { user: User; realm: Realm };
export type MaybeAuthedContext = BaseContext & { user: User | undefined; realm: Realm | undefined };
export type PublicContext = BaseContext;

/** A handler result sent as it is, without the success envelope (the fallback's OPTIONS 204). */
export class RawResponse {
  constructor(readonly response: HttpResponse) {}
}

type Result = Record<string, unknown> | RawResponse | void;
type Mode = 'required' | 'optional' | 'none';

const rawParams = (event: Event): Record<string, string> => {
  const fromBody = (event.body && typeof event.body === 'object' ? event.body : {}) as Record<string, string>;
  // Upstream reads POST first, then GET: the body wins when a key is in both.
  return { ...(event.queryStringParameters ?? {}), ...fromBody } as Record<string, string>;
};

/**
 * A URL-decoded path segment. Escapes that are not UTF-8 (`%ED%A0%80`, a lone surrogate) stay
 * percent-encoded, as upstream's server keeps them (Django's repercent_broken_unicode), so the
 * segment names nothing rather than failing the request.
 */
const decodePathSegment = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
};

/**
 * `allowWebhookBots`: incoming-webhook bots may call the route (upstream's allow_incoming_webhooks views: POST /messages).
 * `browserSession`: a link a browser follows (an uploaded file at the site root): sent with the
 * session cookie and no Authorization header, the session authenticates it, as upstream's
 * rest_dispatch does for a web request; else HTTP Basic, as for the API.
 * `quiet`: a success the handler calls routine (an idle long poll: upstream's heartbeat) logs no
 * request line but for a sample (config.quietRequestLogSample); its errors are all logged.
 */
/** A function's handler: API Gateway's payload 2.0, or an Application Load Balancer's event. */
type Handler = {
  (event: APIGatewayProxyEventV2, context?: Context): Promise<HttpResponse>;
  (event: AlbEvent, context?: Context): Promise<AlbResponse>;
};

type Options = { allowWebhookBots?: boolean; browserSession?: boolean; quiet?: (data: Record<string, unknown>) => boolean };

const build = (mode: Mode, fn: (ctx: MaybeAuthedContext) => Promise<Result>, opts: Options = {}) => {
  const principalOf = new WeakMap<object, number>();
  const quietOf = new WeakSet<object>();
  const core = middy<Event, HttpResponse>({ timeoutEarlyInMillis: 0 })
    .use(httpHeaderNormalizer())
    .use(errorHandler())
    .use(bodyParser())
    .handler(async (event, context) => {
      // A /json/ POST that names another method (`method=PATCH`) is that method's route's.
      const tunnelled = await dispatchTunnelled(event as never);
      if (tunnelled) return tunnelled;
      // The host the client addressed, past any hop (lib/http/session.ts viewerHost). A /json/
      // request (the web app's) is authenticated by its session instead of an API key.
      event.headers = withViewerHost(event.headers);
      const json = isJsonRoute(event.headers);
      const headers = event.headers ?? {};
      let user: User | undefined;
      let realm: Realm | undefined;
      const browser = opts.browserSession && headers.authorization === undefined && hasSessionCookie(event);
      if ((json || browser) && mode !== 'none') {
        ({ user, realm } = await authenticateJsonRequest(event, mode === 'required'));
        if (user) principalOf.set(context, user.id);
      } else if (mode === 'required' || (mode === 'optional' && headers.authorization !== undefined)) {
        ({ user, realm } = await authenticate(headers.authorization, headers.host, opts));
        principalOf.set(context, user.id);
      } else if (mode === 'optional') {
        realm = await realmForHost(headers.host);
      }
      const params = new RequestParams(rawParams(event));
      const pathParams = event.pathParameters ?? {};
      const pathString = (name: string): string => {
        const value = pathParams[name];
        if (value === undefined) throw new PathNotFoundError();
        return decodePathSegment(value);
      };
      const ctx: MaybeAuthedContext = {
        event,
        context: typeof context?.getRemainingTimeInMillis === 'function' ? context : undefined,
        requestId: requestIdOf(context),
        user,
        realm,
        params: (spec) => params.parse(spec),
        hasParam: (name) => params.has(name),
        pathInt: (name) => {
          const value = pathString(name);
          // Digits beyond what a number holds exactly name no object either.
          if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new PathNotFoundError();
          return Number(value);
        },
        pathString,
        files: event.uploadedFiles ?? [],
      };
      const data = await fn(ctx);
      if (data instanceof RawResponse) return data.response;
      if (data && opts.quiet?.(data)) quietOf.add(context);
      return jsonSuccess(data ?? {}, params.ignored());
    });

  const serve = async (event: APIGatewayProxyEventV2, context?: Context): Promise<HttpResponse> => {
    const started = Date.now();
    const ctx = context ?? ({} as Context);
    const response = await core(event as unknown as Event, ctx);
    logRequest(event, ctx, { status: response.statusCode, started, userId: principalOf.get(ctx), quiet: quietOf.has(ctx) });
    const acceptEncoding = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
    return compressIfAccepted(response, acceptEncoding);
  };
  // A load balancer's request (the long-poll's edge: lib/http/alb.ts) is served as API Gateway's.
  const handler = async (event: APIGatewayProxyEventV2 | AlbEvent, context?: Context): Promise<HttpResponse | AlbResponse> =>
    viaAlb(event) ? toAlb(await serve(fromAlb(event as AlbEvent), context)) : serve(event as APIGatewayProxyEventV2, context);
  return handler as Handler;
};

/** An endpoint that requires HTTP Basic authentication (at /json/, the session: lib/http/session.ts). */
export const apiHandler = (fn: (ctx: AuthedContext) => Promise<Result>, opts: Options = {}) => build('required', fn as never, opts);
/** An endpoint that authenticates when credentials are sent, else serves the host's organization. */
export const optionalAuthApiHandler = (fn: (ctx: MaybeAuthedContext) => Promise<Result>) => build('optional', fn);
/**
 * An endpoint that authenticates each request itself, required all the same (GET /events, by the
 * queue it polls: lib/http/auth.ts authenticatePoll).
 */
export const selfAuthenticatingApiHandler = (fn: (ctx: PublicContext) => Promise<Result>, opts: Options = {}) => build('none', fn, opts);
/** An endpoint that never authenticates (an Authorization header is ignored). */
export const publicApiHandler = (fn: (ctx: PublicContext) => Promise<Result>) => build('none', fn);
