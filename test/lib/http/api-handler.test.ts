// The endpoint wrapper: envelopes, unexpected exceptions, and the one log line per request.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { BadRequestError } from '../../../lib/errors';
import { apiHandler, publicApiHandler } from '../../../lib/http/api-handler';
import { documentClient } from '../../../lib/store/client';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, buildEvent, call } from '../../helpers/api';
import { handler as whoAmI } from './who-am-i';

const SECRET = 'secret-detail-that-must-not-leak';

const crashing = publicApiHandler(async () => {
  throw new Error(`unexpected ${SECRET}`);
});
const crashingInDynamo = publicApiHandler(async () => {
  await documentClient().send(new GetCommand({ TableName: `no-such-table-${SECRET}`, Key: { pk: 'a', sk: 'b' } }));
});
const refusing = apiHandler(async () => {
  throw new BadRequestError('Nope', { extra_field: 1 });
});

/** Captures the info and error lines (lib/log.ts, through the console in tests) while `fn` runs, with request logging on. */
const captureLogs = async (fn: () => Promise<unknown>): Promise<{ out: string[]; err: string[] }> => {
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'info').mockImplementation((...args) => void out.push(args.join(' ')));
  const error = jest.spyOn(console, 'error').mockImplementation((...args) => void err.push(args.join(' ')));
  const saved = process.env.REQUEST_LOG;
  process.env.REQUEST_LOG = 'on';
  try {
    await fn();
  } finally {
    process.env.REQUEST_LOG = saved;
    log.mockRestore();
    error.mockRestore();
  }
  return { out, err };
};

describe('the endpoint wrapper', () => {
  it('sends the success envelope as JSON with a trailing newline', async () => {
    const response = await whoAmI(await buildEvent({ method: 'GET', path: '/test/who_am_i', as: 'iago@zulip.com' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['Content-Type']).toBe('application/json');
    expect(response.body.endsWith('}\n')).toBe(true);
    expect(JSON.parse(response.body)).toMatchObject({ result: 'success', msg: '', user_id: 11 });
  });

  it('sends an API error with its status, code and extra fields', async () => {
    const result = await call(refusing, { method: 'POST', path: '/test/refusing', as: 'iago@zulip.com' });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ result: 'error', msg: 'Nope', code: 'BAD_REQUEST', extra_field: 1 });
  });

  it('turns an unexpected exception into a bare 500 and logs it with the request id', async () => {
    let result: Awaited<ReturnType<typeof call>> | undefined;
    const { err } = await captureLogs(async () => {
      result = await call(crashing, { method: 'POST', path: '/test/crash' });
    });
    expect(result!.status).toBe(500);
    expect(result!.body).toEqual({ result: 'error', msg: 'Internal server error' });
    expect(JSON.stringify(result!.body)).not.toContain(SECRET);
    expect(err).toHaveLength(1);
    const logged = JSON.parse(err[0]);
    expect(logged).toMatchObject({
      level: 'ERROR',
      message: 'unhandled exception',
      service: 'chat',
      requestId: expect.any(String),
      error: { message: `unexpected ${SECRET}` },
    });
    expect(logged.error.stack).toContain('api-handler.test.ts');
  });

  it('never shows a DynamoDB error to the client', async () => {
    let result: Awaited<ReturnType<typeof call>> | undefined;
    await captureLogs(async () => {
      result = await call(crashingInDynamo, { method: 'GET', path: '/test/crash' });
    });
    expect(result!.status).toBe(500);
    expect(result!.body).toEqual({ result: 'error', msg: 'Internal server error' });
  });

  it('logs one JSON line per request with route, status, duration, request id and user id', async () => {
    const { out } = await captureLogs(() => call(whoAmI, { method: 'GET', path: '/test/who_am_i', as: 'iago@zulip.com' }));
    expect(out).toHaveLength(1);
    // Powertools' Logger's line (lib/log.ts): its level, message, time and service, then ours.
    expect(JSON.parse(out[0])).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.any(String),
      service: 'chat',
      sampling_rate: 0,
      route: 'GET /test/who_am_i',
      status: 200,
      durationMs: expect.any(Number),
      requestId: expect.any(String),
      userId: 11,
    });
  });

  it('logs failed requests too, without the user', async () => {
    const { out } = await captureLogs(() => call(whoAmI, { method: 'GET', path: '/test/who_am_i', authorization: 'Bearer x' }));
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0])).toMatchObject({ status: 400 });
    expect(JSON.parse(out[0])).not.toHaveProperty('userId');
  });

  it('never writes the API key or the Authorization header to a log', async () => {
    const [iago] = await usersStore.listByEmail('iago@zulip.com');
    const good = basicAuth(iago.email, iago.apiKey);
    const bad = basicAuth(iago.email, `${iago.apiKey.slice(0, 31)}X`);
    const { out, err } = await captureLogs(async () => {
      await call(whoAmI, { method: 'GET', path: '/test/who_am_i', authorization: good, params: { name: 'x' } });
      await call(whoAmI, { method: 'GET', path: '/test/who_am_i', authorization: bad });
      await call(crashing, { method: 'POST', path: '/test/crash', authorization: good });
    });
    const everything = [...out, ...err].join('\n');
    expect(out).toHaveLength(3);
    for (const secret of [iago.apiKey, good.slice('Basic '.length), bad.slice('Basic '.length), `${iago.apiKey.slice(0, 31)}X`]) {
      expect(everything).not.toContain(secret);
    }
  });
});
