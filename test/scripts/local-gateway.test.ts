// The local service's front (scripts/local-gateway.ts): the emulator's own answers become the
// service's own (the API's envelope under /api/ and /json/, the pages' HTML elsewhere), compressed
// or not; the service's answers pass unchanged.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { freePort } from '../../scripts/local-dynamo';
import { rewriteAnswer, rewriteBody, startLocalGateway, stopLocalGateway } from '../../scripts/local-gateway';
import { rawGet } from '../helpers/raw-get';
import { pageText } from '../helpers/web';

describe("rewriting the emulator's answers", () => {
  it('turns a Lambda timeout answered with 200 into a 504 envelope', () => {
    const body = JSON.stringify({ errorMessage: '[504] - Lambda timeout.', errorType: 'LambdaTimeoutError', stackTrace: ['at x'] });
    expect(rewriteBody(200, body)).toEqual({
      status: 504,
      body: JSON.stringify({ result: 'error', msg: 'Gateway timeout: the request took too long' }),
    });
  });

  it('turns any other Lambda failure into a 502 envelope without its stack', () => {
    const body = JSON.stringify({ errorMessage: 'boom', errorType: 'TypeError', stackTrace: ['at secret (/srv/x.ts:1:1)'] });
    expect(rewriteBody(200, body)).toEqual({ status: 502, body: JSON.stringify({ result: 'error', msg: 'Internal server error' }) });
  });

  it("turns the HTTP layer's own 400 into the error envelope with its message", () => {
    const body = JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid multipart payload format' });
    expect(rewriteBody(400, body)).toEqual({
      status: 400,
      body: JSON.stringify({ result: 'error', msg: 'Invalid multipart payload format', code: 'BAD_REQUEST' }),
    });
  });

  it('gives an empty error body the envelope with the status reason', () => {
    expect(rewriteBody(413, '')).toEqual({
      status: 413,
      body: JSON.stringify({ result: 'error', msg: 'Payload Too Large', code: 'BAD_REQUEST' }),
    });
  });

  it("leaves the API's own answers alone, errors included", () => {
    expect(rewriteBody(200, JSON.stringify({ result: 'success', msg: '' }))).toBeUndefined();
    expect(rewriteBody(404, JSON.stringify({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' }))).toBeUndefined();
    expect(rewriteBody(204, '')).toBeUndefined();
  });
});

describe('the service’s own answer at every path (rewriteAnswer)', () => {
  const listing = JSON.stringify({
    currentRoute: 'get - /favicon.ico',
    error: 'Serverless-offline: route not found.',
    existingRoutes: ['GET - /login/'],
    statusCode: 404,
  });

  it("turns the emulator's route listing under /api/ and /json/ into the API's envelope", () => {
    for (const path of ['/api/v1/nope', '/json/nope']) {
      expect(rewriteAnswer(path, 404, 'application/json; charset=utf-8', listing)).toEqual({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ result: 'error', msg: 'Serverless-offline: route not found.', code: 'BAD_REQUEST' }),
      });
    }
  });

  it("turns it into the pages' 404 page at any other path", () => {
    const answer = rewriteAnswer('/favicon.ico', 404, 'application/json; charset=utf-8', listing)!;
    expect(answer).toMatchObject({ status: 404, contentType: 'text/html; charset=utf-8' });
    expect(pageText(answer.body)).toContain('Page not found There is no page at this address.');
    expect(answer.body).not.toContain('Serverless-offline');
  });

  it("turns a page's Lambda failure into the pages' error page, without its stack", () => {
    const body = JSON.stringify({ errorMessage: 'boom', errorType: 'TypeError', stackTrace: ['at secret (/srv/x.ts:1:1)'] });
    const answer = rewriteAnswer('/login/', 200, 'application/json', body)!;
    expect(answer).toMatchObject({ status: 502, contentType: 'text/html; charset=utf-8' });
    expect(pageText(answer.body)).toContain('Internal server error');
    expect(answer.body).not.toContain('secret');
  });

  it("leaves the pages' own HTML alone, their error pages included", () => {
    expect(
      rewriteAnswer('/login/', 404, 'text/html; charset=utf-8', '<!DOCTYPE html><title>Organization not found</title>'),
    ).toBeUndefined();
    expect(rewriteAnswer('/login/', 403, 'text/html; charset=utf-8', '<!DOCTYPE html>CSRF')).toBeUndefined();
  });
});

describe('the front in front of an emulator that compresses (as hapi does for a client that accepts it)', () => {
  let emulator: Server;
  let gateway: Server;
  let port: number;
  const bodies: Record<string, { status: number; type: string; body: string }> = {
    '/favicon.ico': {
      status: 404,
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: 'Serverless-offline: route not found.', existingRoutes: Array(200).fill('GET - /x'), statusCode: 404 }),
    },
    '/api/v1/nope': {
      status: 404,
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: 'Serverless-offline: route not found.', existingRoutes: Array(200).fill('GET - /x'), statusCode: 404 }),
    },
    '/api/v1/big': { status: 200, type: 'application/json', body: JSON.stringify({ result: 'success', msg: '', pad: 'x'.repeat(5000) }) },
  };

  beforeAll(async () => {
    emulator = createServer((req, res) => {
      const { status, type, body } = bodies[req.url!];
      const gzip = /gzip/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(status, { 'content-type': type, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gzip ? gzipSync(body) : body);
    });
    await new Promise<void>((r) => emulator.listen(0, '127.0.0.1', () => r()));
    port = await freePort();
    gateway = await startLocalGateway(port, (emulator.address() as AddressInfo).port);
  });

  afterAll(async () => {
    await stopLocalGateway(gateway);
    await new Promise((r) => emulator.close(r));
  });

  /** A raw GET (fetch would decompress), with the body decoded as the client would. */
  const get = (path: string, acceptEncoding?: string) => rawGet(`http://127.0.0.1:${port}${path}`, acceptEncoding);

  it.each([[undefined], ['gzip, deflate, br']])('answers /favicon.ico with the 404 page (Accept-Encoding: %s)', async (acceptEncoding) => {
    const answer = await get('/favicon.ico', acceptEncoding);
    expect(answer).toMatchObject({ status: 404, type: 'text/html; charset=utf-8' });
    expect(pageText(answer.text)).toContain('Page not found');
    expect(answer.text).not.toContain('existingRoutes');
  });

  it.each([[undefined], ['gzip']])('answers an unknown API path with the envelope (Accept-Encoding: %s)', async (acceptEncoding) => {
    const answer = await get('/api/v1/nope', acceptEncoding);
    expect(answer).toMatchObject({ status: 404, type: 'application/json' });
    expect(JSON.parse(answer.text)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it("passes the API's own compressed answer on as it came", async () => {
    const answer = await get('/api/v1/big', 'gzip');
    expect(answer).toMatchObject({ status: 200, encoding: 'gzip' });
    expect(JSON.parse(answer.text)).toMatchObject({ result: 'success' });
  });
});
