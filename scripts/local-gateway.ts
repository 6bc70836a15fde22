// A thin HTTP front for serverless-offline, playing the part of API Gateway's error answers so
// that every answer of the local service is the service's own (issue 13 items 5 and 6, issue 37):
//
// - serverless-offline answers a Lambda failure of an HTTP API (payload 2.0) route, a timeout
//   included, with status 200 and a body `{"errorMessage","errorType","stackTrace"}`: a client
//   cannot tell whether a write happened. Here it becomes 504 (a timeout) or 502 (any other
//   failure), as API Gateway answers, with `{"result":"error","msg"}` like our own 500.
// - Its HTTP layer (hapi) refuses some requests before any handler runs, with its own shape
//   `{"statusCode":400,"error":"Bad Request","message":…}` or an empty body, and answers a path no
//   route serves with its list of every route: the same status with the service's own answer.
// - A request this server cannot parse at all (a request line or headers over Node's 16 KB, a
//   malformed request) gets the envelope too, written on the socket.
//
// A `/json/…` request (the web app's) goes on to the `/api/v1/…` route that serves it, marked as
// such, as API Gateway's `/json/{proxy+}` route forwards it in AWS (routed below).
//
// Which answer is one rule (isApiPath, as the fallback routes): under /api/ and /json/ the error
// envelope (code BAD_REQUEST); at any other path the pages' HTML error page. hapi compresses what
// it sends a client that accepts gzip or deflate, so a compressed answer is read decompressed
// before it is judged. Everything else passes through unchanged, bodies and headers included.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { apiPathOfJsonPath, isApiPath, JSON_ROUTE_HEADER } from '../lib/http/route-table';
import { messagePage, pageNotFound } from '../lib/web/page-handler';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
};

const envelope = (status: number, msg: string): { status: number; body: string } => ({
  status,
  body: JSON.stringify(status >= 500 ? { result: 'error', msg } : { result: 'error', msg, code: 'BAD_REQUEST' }),
});

/** What the client gets for a body that is not the API's: undefined when the body is the API's own. */
export const rewriteBody = (status: number, text: string): { status: number; body: string } | undefined => {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body && typeof body === 'object' && 'result' in body) return undefined;
  if (body && typeof body === 'object' && 'errorType' in body && 'errorMessage' in body) {
    const timedOut = (body as { errorType: string }).errorType === 'LambdaTimeoutError';
    return timedOut ? envelope(504, 'Gateway timeout: the request took too long') : envelope(502, 'Internal server error');
  }
  if (status < 400) return undefined;
  const boom = body as { message?: unknown; error?: unknown } | undefined;
  const msg =
    typeof boom?.message === 'string' && boom.message !== ''
      ? boom.message
      : typeof boom?.error === 'string'
        ? boom.error
        : (REASONS[status] ?? 'Bad Request');
  return envelope(status >= 500 ? 502 : status, status >= 500 ? 'Internal server error' : msg);
};

export type Answer = { status: number; contentType: string; body: string };

/** The pages' error page for a status the emulator chose. */
const errorPage = (status: number, msg: string): Answer => {
  const page =
    status === 404
      ? pageNotFound()
      : status >= 500
        ? messagePage(status, {
            title: 'Error',
            heading: 'Internal server error',
            paragraphs: ['Something went wrong. Please try again later.'],
          })
        : messagePage(status, { title: 'Error', paragraphs: [msg] });
  return { status, contentType: page.headers['Content-Type'], body: page.body };
};

/**
 * What the client gets instead of an answer of the emulator's own at `path` (without its query):
 * undefined when the answer is the service's (the API's envelope, a page's HTML, a file).
 */
export const rewriteAnswer = (path: string, status: number, contentType: string, text: string): Answer | undefined => {
  if (/^text\/html/i.test(contentType)) return undefined;
  const api = rewriteBody(status, text);
  if (!api) return undefined;
  if (isApiPath(path)) return { status: api.status, contentType: 'application/json', body: api.body };
  return errorPage(api.status, (JSON.parse(api.body) as { msg: string }).msg);
};

/** The body as sent, decoded from the Content-Encoding hapi chose; undefined when it cannot be. */
const decoded = (raw: Buffer, encoding: string): Buffer | undefined => {
  try {
    if (encoding === '' || encoding === 'identity') return raw;
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw);
    if (encoding === 'deflate') return inflateSync(raw);
    if (encoding === 'br') return brotliDecompressSync(raw);
  } catch {
    // Not what it claims to be: passed on as it is.
  }
  return undefined;
};

const writeRaw = (socket: Duplex, status: number, msg: string): void => {
  if (!socket.writable) return;
  const { body } = envelope(status, msg);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/**
 * Where a request goes: a `/json/…` path (the web app's) to the `/api/v1/…` route that serves it,
 * marked and with the host it was sent to, as API Gateway's `/json/{proxy+}` route does in AWS
 * (serverless.yml); any other path unchanged.
 */
const routed = (url: string, incoming: IncomingHttpHeaders): { path: string; headers: IncomingHttpHeaders } => {
  const query = url.indexOf('?');
  const apiPath = apiPathOfJsonPath(query < 0 ? url : url.slice(0, query));
  if (apiPath === undefined) return { path: url, headers: { ...incoming } };
  return {
    path: query < 0 ? apiPath : `${apiPath}${url.slice(query)}`,
    headers: { ...incoming, [JSON_ROUTE_HEADER]: '1', 'x-forwarded-host': incoming.host },
  };
};

/** Listens on `port` and forwards every request to serverless-offline at `targetPort`. */
export const startLocalGateway = (port: number, targetPort: number): Promise<Server> => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { path: target, headers } = routed(req.url ?? '/', req.headers);
      const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: req.method, path: target, headers }, (up) => {
        const out: Buffer[] = [];
        up.on('data', (c: Buffer) => out.push(c));
        up.on('end', () => {
          const raw = Buffer.concat(out);
          const text = decoded(
            raw,
            String(up.headers['content-encoding'] ?? '')
              .trim()
              .toLowerCase(),
          );
          const path = (req.url ?? '/').split('?')[0];
          const rewritten =
            text && rewriteAnswer(path, up.statusCode ?? 502, String(up.headers['content-type'] ?? ''), text.toString('utf8'));
          if (!rewritten) {
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(raw);
            return;
          }
          res.writeHead(rewritten.status, { 'content-type': rewritten.contentType, 'content-length': Buffer.byteLength(rewritten.body) });
          res.end(rewritten.body);
        });
      });
      upstream.on('error', () => {
        if (res.headersSent) return void res.destroy();
        const { status, body } = envelope(502, 'Internal server error');
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') writeRaw(socket, 431, 'Request Header Fields Too Large');
    else if (error.code === 'ECONNRESET') socket.destroy();
    else writeRaw(socket, 400, 'Bad Request');
  });
  // Long polls (GET /events) wait up to the long-poll bound; never cut them short here.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
};

/** Closes the gateway and every connection it holds (a waiting long-poll included). */
export const stopLocalGateway = async (server: Server): Promise<void> => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
};
