// A job that fails does not take the service down. Over HTTP through serverless-offline as
// `npm start` runs it, with push notifications configured and the service's DynamoDB behind the
// fault proxy (test/helpers/dynamo-faults.ts): the push job's first run fails when its DynamoDB
// calls go unanswered (once, this ended serverless-offline's process, and every request answered
// 502 until a restart). The service keeps answering, the local invoker (scripts/local-lambda.ts)
// logs the failure with its request id and runs the job again, and the notification arrives once.
import { randomBytes, randomUUID } from 'node:crypto';
import { startDynamoFaults, type DynamoFaults } from '../helpers/dynamo-faults';
import { useLocalService } from '../helpers/e2e';
import { appRegistration, bouncerState, bouncerUrl } from '../helpers/push';

const push = { PUSH_BOUNCER_URL: bouncerUrl(), ZULIP_ORG_ID: randomUUID(), ZULIP_ORG_KEY: randomBytes(32).toString('hex') };
// bouncerState() reads this server's share of the bouncer's state by its id.
Object.assign(process.env, { ZULIP_ORG_ID: push.ZULIP_ORG_ID });

let faults: DynamoFaults;
// Before the service starts: it is given the proxy as its DynamoDB endpoint.
beforeAll(async () => {
  faults = await startDynamoFaults();
});
afterAll(async () => {
  await faults.stop();
  delete process.env.ZULIP_ORG_ID;
});

// An unanswered call fails its attempt after 500 ms (the SDK tries each call 3 times).
const service = useLocalService({ env: { ...push, DYNAMODB_REQUEST_TIMEOUT_MS: '500' } });

const until = async <T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const keyOf = async (email: string): Promise<string> =>
  (await service.request('POST', '/dev_fetch_api_key', { params: { username: email } })).body.api_key as string;

describe('e2e: a job whose DynamoDB calls fail', () => {
  it('leaves the service answering, and its retry notifies the phone once', async () => {
    const hamlet = { email: 'hamlet@zulip.com', apiKey: await keyOf('hamlet@zulip.com') };
    const iago = { email: 'iago@zulip.com', apiKey: await keyOf('iago@zulip.com') };
    const { device_id } = (await service.request('POST', '/register_client_device', { auth: hamlet })).body;
    const registered = await service.request('POST', '/mobile_push/register', {
      auth: hamlet,
      params: { device_id, ...appRegistration() },
    });
    expect(registered.status).toBe(200);
    await until('the registration to reach the bouncer', async () => ((await bouncerState()).devices.length === 1 ? true : undefined));

    // Every attempt of the push job's first call on its notification records goes unanswered.
    faults.inject({ fault: 'hang', when: (req) => JSON.stringify(req.body).includes('PUSHED#'), times: 3 });
    const sent = await service.request('POST', '/messages', {
      auth: iago,
      params: { type: 'direct', to: JSON.stringify([10]), content: 'are you there?' },
    });
    expect(sent.status).toBe(200);

    // While the job fails and waits for its retry, every request is answered.
    for (let i = 0; i < 10; i += 1) {
      const me = await service.request('GET', '/users/me', { auth: iago });
      expect(me.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const notifications = await until('the notification', async () => {
      const { notifications } = await bouncerState();
      return notifications.length > 0 ? notifications : undefined;
    });
    expect(faults.dealt().map((f) => f.fault)).toEqual(['hang', 'hang', 'hang']);
    // No second notification follows.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await bouncerState()).notifications).toEqual(notifications);
    expect(notifications).toHaveLength(1);

    const failures = service.logs.filter((l) => l.startsWith('{"asyncInvocation"')).map((l) => JSON.parse(l));
    expect(failures).toEqual([
      {
        asyncInvocation: 'chat-local-push',
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        attempt: 1,
        error: expect.stringContaining('requestTimeout'),
      },
    ]);
    expect((await service.request('GET', '/users/me', { auth: hamlet })).status).toBe(200);
  }, 90_000);
});
