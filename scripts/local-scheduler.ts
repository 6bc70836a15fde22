// EventBridge Scheduler on this machine, for `npm start`: the handlers create, update and delete
// one-time schedules through the same @aws-sdk/client-scheduler calls as deployed
// (lib/store/schedules.ts, SCHEDULER_ENDPOINT), and at a schedule's `at()` time this server
// invokes its target function asynchronously through the local invoker (scripts/local-lambda.ts),
// with the schedule's input, as Scheduler invokes Lambda; then forgets the schedule
// (ActionAfterCompletion DELETE). Schedules live in memory: a restart drops them (a scheduled
// message whose time passes while nothing runs is then not sent, as if Scheduler had been down).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncListener, readBody } from './http-body';

export type LocalScheduler = { endpoint: string; stop: () => Promise<void> };

type ScheduleInput = { ScheduleExpression?: string; Target?: { Arn?: string; Input?: string } };

const SCHEDULE_PATH = /^\/schedules\/([^/?]+)/;
const AT = /^at\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)$/;
/** setTimeout's longest delay; a later time re-arms when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const reply = (res: import('node:http').ServerResponse, status: number, body: unknown, errorType?: string): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
  res.end(JSON.stringify(body));
};

/** Starts the stand-in on a free loopback port; `invokerEndpoint` is the local asynchronous invoker's. */
export const startLocalScheduler = async (opts: { invokerEndpoint: string; log: (line: string) => void }): Promise<LocalScheduler> => {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const invoke = async (name: string, target: NonNullable<ScheduleInput['Target']>): Promise<void> => {
    // A target's ARN names the function last (arn:…:function:<name>); locally the prefix may be
    // anything serverless-offline made of serverless.yml's unresolved Fn::Join.
    const functionName = /[\w-]+$/.exec(target.Arn ?? '')?.[0] ?? '';
    const response = await fetch(`${opts.invokerEndpoint}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, {
      method: 'POST',
      headers: { 'x-amz-invocation-type': 'Event', 'content-type': 'application/json' },
      body: target.Input ?? '{}',
    }).catch((error: unknown) => ({ status: 0, error }));
    if (response.status !== 202) opts.log(JSON.stringify({ schedule: name, invocation: 'failed', status: response.status }));
  };

  const arm = (name: string, atMs: number, target: NonNullable<ScheduleInput['Target']>): void => {
    clearTimeout(timers.get(name));
    const wait = Math.max(0, atMs - Date.now());
    timers.set(
      name,
      setTimeout(
        () => {
          if (Date.now() < atMs) return arm(name, atMs, target);
          timers.delete(name);
          void invoke(name, target);
        },
        Math.min(wait, MAX_TIMER_MS),
      ),
    );
  };

  const server: Server = createServer(
    asyncListener(async (req, res) => {
      const match = SCHEDULE_PATH.exec(req.url ?? '');
      if (!match) return reply(res, 404, { Message: 'Not found' }, 'ResourceNotFoundException');
      const name = decodeURIComponent(match[1]);
      if (req.method === 'DELETE') {
        if (!timers.has(name)) return reply(res, 404, { Message: `Schedule ${name} does not exist.` }, 'ResourceNotFoundException');
        clearTimeout(timers.get(name));
        timers.delete(name);
        return reply(res, 200, {});
      }
      if (req.method !== 'POST' && req.method !== 'PUT') return reply(res, 405, { Message: 'Method not allowed' }, 'ValidationException');
      if (req.method === 'POST' && timers.has(name))
        return reply(res, 409, { Message: `Schedule ${name} already exists.` }, 'ConflictException');
      const input = JSON.parse((await readBody(req)).toString('utf8') || '{}') as ScheduleInput;
      const at = AT.exec(input.ScheduleExpression ?? '');
      if (!at || !input.Target) return reply(res, 400, { Message: 'Only one-time at() schedules are served here' }, 'ValidationException');
      arm(name, Date.parse(`${at[1]}Z`), input.Target);
      return reply(res, 200, { ScheduleArn: `arn:aws:scheduler:local:000000000000:schedule/default/${name}` });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async (): Promise<void> => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { endpoint: `http://127.0.0.1:${port}`, stop };
};
