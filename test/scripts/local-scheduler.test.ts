// The local EventBridge Scheduler (scripts/local-scheduler.ts) serves lib/store/schedules.ts's
// real SDK calls: a schedule created, replaced and deleted by name, and its target function
// invoked asynchronously with its input at its time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../scripts/http-body';
import { startLocalScheduler, type LocalScheduler } from '../../scripts/local-scheduler';
import { deleteSchedule, putSchedule } from '../../lib/store/schedules';

type Invocation = { functionName: string; type: string | undefined; body: unknown };

let invoker: Server;
let scheduler: LocalScheduler;
const invocations: Invocation[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  invoker = createServer((req, res) => {
    void readBody(req).then((body) => {
      const functionName = decodeURIComponent(/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
      invocations.push({
        functionName,
        type: req.headers['x-amz-invocation-type'] as string | undefined,
        body: JSON.parse(body.toString()),
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => invoker.listen(0, '127.0.0.1', resolve));
  scheduler = await startLocalScheduler({
    invokerEndpoint: `http://127.0.0.1:${(invoker.address() as AddressInfo).port}`,
    log: () => undefined,
  });
  Object.assign(process.env, {
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    SCHEDULED_DELIVERY_FUNCTION: 'chat-local-scheduledDelivery',
    FUNCTION_ARN_PREFIX: '',
  });
});

afterAll(async () => {
  process.env = saved;
  await scheduler.stop();
  await new Promise<void>((resolve) => invoker.close(() => resolve()));
});

const waitFor = async (check: () => boolean, ms: number): Promise<void> => {
  for (const until = Date.now() + ms; !check() && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
};

describe('the local EventBridge Scheduler', () => {
  it('invokes the job function asynchronously with the latest input of a schedule at its time, once', async () => {
    const at = Math.floor(Date.now() / 1000) + 1;
    await putSchedule({ name: 'scheduled-2-10-1', atSeconds: at + 600, job: 'scheduledDelivery', payload: { id: 0 } });
    // The same name again replaces it (Scheduler's ConflictException, then UpdateSchedule).
    await putSchedule({ name: 'scheduled-2-10-1', atSeconds: at, job: 'scheduledDelivery', payload: { realmId: 2, userId: 10, id: 1 } });
    await waitFor(() => invocations.length > 0, 5000);
    expect(invocations).toEqual([{ functionName: 'chat-local-scheduledDelivery', type: 'Event', body: { realmId: 2, userId: 10, id: 1 } }]);
    // Run and deleted: deleting it again is no error.
    await expect(deleteSchedule('scheduled-2-10-1')).resolves.toBeUndefined();
  });

  it('invokes nothing for a schedule deleted before its time', async () => {
    invocations.length = 0;
    await putSchedule({
      name: 'scheduled-2-10-2',
      atSeconds: Math.floor(Date.now() / 1000) + 1,
      job: 'scheduledDelivery',
      payload: { id: 2 },
    });
    await deleteSchedule('scheduled-2-10-2');
    await new Promise((r) => setTimeout(r, 2500));
    expect(invocations).toEqual([]);
  });
});
