// A bot's service for the outgoing webhook tests: a real HTTP server (node:http on a free port)
// that records each request and answers as the test says.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as createBot } from '../../../functions/bots/create';
import { call, expectSuccess } from '../../helpers/api';

/** What the service answers: a status (200), a body, after a delay. */
export type ServiceAnswer = { status?: number; body?: string; contentType?: string; delayMs?: number };
export type ServiceRequest = { headers: IncomingHttpHeaders; body: string };

export type TestService = {
  url: string;
  requests: ServiceRequest[];
  /** How the next requests are answered. */
  answer: (respond: (request: ServiceRequest) => ServiceAnswer | Promise<ServiceAnswer>) => void;
  close: () => Promise<void>;
};

export const startService = async (): Promise<TestService> => {
  const requests: ServiceRequest[] = [];
  let respond: (request: ServiceRequest) => ServiceAnswer | Promise<ServiceAnswer> = () => ({ body: '{}' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      void (async () => {
        const a = await respond(request);
        if (a.delayMs) await new Promise((resolve) => setTimeout(resolve, a.delayMs));
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'Content-Type': a.contentType ?? 'application/json' });
        res.end(a.body ?? '');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    answer: (fn) => {
      respond = fn;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A URL where nothing listens: a port that was free a moment ago. */
export const closedUrl = async (): Promise<string> => {
  const service = await startService();
  await service.close();
  return service.url;
};

/** Creates an outgoing webhook bot owned by hamlet (10) posting to `url`: its id. */
export const createOutgoingBot = async (fullName: string, shortName: string, url: string, interfaceType = 1): Promise<number> =>
  expectSuccess(
    await call(createBot, {
      method: 'POST',
      path: '/bots',
      as: 'hamlet@zulip.com',
      params: { full_name: fullName, short_name: shortName, bot_type: 3, payload_url: JSON.stringify(url), interface_type: interfaceType },
    }),
  ).user_id as number;
