// DynamoDB calls are bounded in time: an answer that never comes ends the call after the request
// timeout of each of its attempts (the SDK's retries), well inside the function's own timeout, so
// the client gets the error envelope instead of a Lambda timeout. Hangs are injected by the
// fault proxy in front of DynamoDB Local.
import { handler as listDrafts } from '../../../functions/drafts/list';
import { dynamoCallLimits } from '../../../lib/store/client';
import * as usersStore from '../../../lib/store/users';
import { call } from '../../helpers/api';
import { startDynamoFaults, type DynamoFaults } from '../../helpers/dynamo-faults';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const routesModule = require('../../../functions/routes.js') as {
  timeoutOf: (route: Record<string, unknown>, longPollSeconds: number) => number;
};

const HAMLET = { realmId: 2, email: 'hamlet@zulip.com' };

describe('DynamoDB call limits', () => {
  let faults: DynamoFaults | undefined;
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
    delete process.env.DYNAMODB_REQUEST_TIMEOUT_MS;
  });

  it('end a call that is never answered within every function timeout, the long poll past its bound included', () => {
    // Deployed: no local endpoint.
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    delete process.env.DYNAMODB_ENDPOINT;
    const limits = dynamoCallLimits();
    process.env.DYNAMODB_ENDPOINT = endpoint;
    expect(limits).toEqual({ connectionTimeoutMs: 1000, requestTimeoutMs: 1500, maxAttempts: 3, unansweredCallMs: 4650 });
    const route = { name: 'x', method: 'GET', path: '/x', handler: 'h' };
    expect(limits.unansweredCallMs).toBeLessThan(routesModule.timeoutOf(route, 20) * 1000);
    // GET /events may start a call just before its long-poll bound: the time its function has past the bound covers one.
    expect(limits.unansweredCallMs).toBeLessThan((routesModule.timeoutOf({ ...route, longPoll: true }, 20) - 20) * 1000);
  });

  it('give DynamoDB Local, which shares the cores with the tests, 10 s an attempt', () => {
    expect(dynamoCallLimits().requestTimeoutMs).toBe(10_000);
  });

  it('gives up on a request that is never answered after its last attempt, each ended by the request timeout', async () => {
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '200';
    const [hamlet] = await usersStore.listByEmail(HAMLET.email);
    faults = await startDynamoFaults();
    faults.inject({ op: 'GetItem', fault: 'hang', times: Infinity });
    const started = Date.now();
    const error = await usersStore.get(HAMLET.realmId, hamlet!.id).then(
      () => undefined,
      (e: Error & { $metadata?: { attempts?: number } }) => e,
    );
    const took = Date.now() - started;
    expect(error?.name).toBe('TimeoutError');
    expect(error?.$metadata?.attempts).toBe(3);
    expect(faults.dealt().map((e) => `${e.op} ${e.fault}`)).toEqual(['GetItem hang', 'GetItem hang', 'GetItem hang']);
    expect(took).toBeGreaterThanOrEqual(600);
    expect(took).toBeLessThan(600 + 150 + 1000);
  });

  it('answers with the attempt after a hung one (the SDK retries a timed-out request)', async () => {
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '200';
    const [hamlet] = await usersStore.listByEmail(HAMLET.email);
    faults = await startDynamoFaults();
    faults.inject({ op: 'GetItem', fault: 'hang' });
    expect((await usersStore.get(HAMLET.realmId, hamlet!.id))?.email).toBe(HAMLET.email);
    expect(faults.log.filter((e) => e.op === 'GetItem')).toHaveLength(2);
  });

  it('answers a request whose DynamoDB never answers with the 500 envelope, before the function times out', async () => {
    process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '200';
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const auth = `Basic ${Buffer.from(`${HAMLET.email}:${(await usersStore.listByEmail(HAMLET.email))[0]!.apiKey}`).toString('base64')}`;
    faults = await startDynamoFaults();
    faults.inject({ fault: 'hang', times: Infinity });
    const started = Date.now();
    const result = await call(listDrafts, { method: 'GET', path: '/drafts', authorization: auth });
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ result: 'error', msg: 'Internal server error' });
    expect(Date.now() - started).toBeLessThan(2000);
    errors.mockRestore();
  });
});
