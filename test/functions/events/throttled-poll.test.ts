// What a client sees when GET /events is at its concurrency cap (eventsMaxConcurrency): Lambda
// refuses the invocation before our code runs, and API Gateway (HTTP API) answers the poll itself
// with 500 {"message":"Internal Server Error"}. A stand-in for the gateway in front of the real
// handlers gives that answer to a few polls of a real zulip-js client (callOnEachEvent, in a child
// process), which must keep its queue, retry after its pause, and receive every event exactly once.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import * as usersStore from '../../../lib/store/users';
import { buildEvent } from '../../helpers/api';
import { asyncListener, readBody } from '../../../scripts/http-body';

const REALM = 2;
const IAGO = 'iago@zulip.com';
const IAGO_ID = 11;
/** API Gateway's own answer when it cannot invoke the function (a throttled Lambda). */
const THROTTLED = { status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) };
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });

type Poll = { at: number; queueId: string | null; throttled: boolean };

/** The gateway stand-in: the real handlers, except that the next `throttle` polls get THROTTLED. */
const startGateway = async () => {
  const state = { throttle: 0, registers: 0, polls: [] as Poll[], inFlight: 0 };
  const server: Server = createServer(
    asyncListener(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname.replace(/^\/api\/v1/, '');
      const raw = await readBody(req);
      const route = `${req.method} ${path}`;
      if (route === 'GET /events') {
        const throttled = state.throttle > 0;
        state.polls.push({ at: Date.now(), queueId: url.searchParams.get('queue_id'), throttled });
        if (throttled) {
          state.throttle -= 1;
          res.writeHead(THROTTLED.status, { 'content-type': 'application/json' }).end(THROTTLED.body);
          return;
        }
      }
      if (route === 'POST /register') state.registers += 1;
      const handler = route === 'GET /events' ? getEvents : route === 'POST /register' ? register : undefined;
      if (!handler) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
        return;
      }
      const event = await buildEvent({
        method: req.method,
        path,
        authorization: req.headers.authorization ?? '',
        query: Object.fromEntries(url.searchParams),
        ...(raw.length > 0
          ? { rawBody: { body: raw.toString('base64'), contentType: String(req.headers['content-type']), isBase64Encoded: true } }
          : {}),
      });
      state.inFlight += 1;
      const out = await handler(event).finally(() => {
        state.inFlight -= 1;
      });
      const body = out.isBase64Encoded ? Buffer.from(out.body ?? '', 'base64') : (out.body ?? '');
      res.writeHead(out.statusCode ?? 200, { ...(out.headers as Record<string, string>) }).end(body);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, server, port: (server.address() as AddressInfo).port };
};

/** zulip-js's own event loop in a child process, printing each event it gets as a JSON line. */
const startClient = (port: number, apiKey: string) => {
  const script = `
    const zulip = require('zulip-js');
    zulip({ realm: 'http://127.0.0.1:${port}', username: '${IAGO}', apiKey: '${apiKey}' })
      .then((client) => client.callOnEachEvent((event) => console.log('EVENT ' + JSON.stringify(event)), ['alert_words']));
  `;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', script], { cwd: process.cwd() });
  const events: Record<string, any>[] = [];
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('EVENT ')) events.push(JSON.parse(line.slice(6)));
  });
  return { child, events };
};

const until = async (done: () => boolean, what: string, ms = 20_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('GET /events at its concurrency cap', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let client: ReturnType<typeof startClient> | undefined;

  beforeAll(async () => {
    // Short waits, so that the client's polls come back (with heartbeats) while the test runs.
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    gateway = await startGateway();
  });
  afterAll(async () => {
    client?.child.kill();
    // A poll the client left waiting finishes (within the 1 s bound) before the database goes away.
    await until(() => gateway.state.inFlight === 0, 'the last poll to end');
    await new Promise((resolve) => gateway.server.close(resolve));
    delete process.env.EVENTS_LONGPOLL_SECONDS;
  });

  it('leaves zulip-js polling the same queue after its pause, and every event reaches it once, including one sent while it was refused', async () => {
    const [iago] = await usersStore.listByEmail(IAGO);
    client = startClient(gateway.port, iago.apiKey);
    await until(() => gateway.state.polls.length >= 2, 'the client to poll');

    gateway.state.throttle = 3;
    await until(() => gateway.state.polls.filter((p) => p.throttled).length >= 1, 'a refused poll');
    await sendEvent(REALM, tagged('while refused'), { users: [IAGO_ID] });
    await until(
      () =>
        gateway.state.throttle === 0 && gateway.state.polls.some((p, i) => i > 0 && !p.throttled && gateway.state.polls[i - 1].throttled),
      'a poll after the cap freed',
    );
    await sendEvent(REALM, tagged('after'), { users: [IAGO_ID] });
    // Heartbeats end the short waits; the events are what matters.
    const delivered = () => client!.events.filter((e) => e.type !== 'heartbeat');
    await until(() => delivered().length >= 2, 'both events');
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(delivered()).toEqual([
      { ...tagged('while refused'), id: expect.any(Number) },
      { ...tagged('after'), id: expect.any(Number) },
    ]);
    // One queue throughout: the client did not register again after the refusals.
    expect(gateway.state.registers).toBe(1);
    expect(new Set(gateway.state.polls.map((p) => p.queueId)).size).toBe(1);
    // zulip-js pauses a second after every poll, refused or not: a refused client does not hammer the gateway.
    const refused = gateway.state.polls.flatMap((p, i) => (p.throttled ? [i] : []));
    expect(refused).toHaveLength(3);
    for (const i of refused) expect(gateway.state.polls[i + 1].at - gateway.state.polls[i].at).toBeGreaterThanOrEqual(950);
  }, 60_000);
});
