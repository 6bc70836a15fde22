// One-time schedules: a job started at a stated time. Deployed, one EventBridge Scheduler schedule
// per name (an `at(...)` expression, deleted by Scheduler once it has run), whose target is the
// job's Lambda function with the payload as its input; Scheduler retries a failed invocation and
// Lambda retries a failed run, so a job started this way must be idempotent (as every job is:
// lib/store/jobs.ts). With no scheduler configured (the handler tests), this process keeps the
// schedules and starts their jobs itself through startJob when their time comes on the service
// clock: a timer for the real time, and fireDueSchedules for a test that moved the clock.
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { nowMs } from '../clock';
import { config } from '../config';
import { localEndpoint } from './client';
import { startJob, type JobName } from './jobs';

/** A job to start once at `atSeconds` (UNIX seconds); `name` is unique per thing scheduled, and a new put replaces it. */
export type OneTimeSchedule = { name: string; atSeconds: number; job: JobName; payload: unknown };

/** How many times Scheduler retries an invocation it could not make (throttled, the function missing). */
const SCHEDULER_RETRIES = 3;

/** Scheduler's `at()` expression: the UTC time to the second, without a zone. */
const atExpression = (atSeconds: number): string => `at(${new Date(atSeconds * 1000).toISOString().slice(0, 19)})`;

/** The CreateSchedule (and UpdateSchedule) input for a schedule. */
export const buildScheduleInput = (
  s: OneTimeSchedule,
  scheduler: NonNullable<ReturnType<typeof config.scheduler>>,
): CreateScheduleCommandInput => ({
  Name: s.name,
  GroupName: scheduler.group,
  ScheduleExpression: atExpression(s.atSeconds),
  ScheduleExpressionTimezone: 'UTC',
  FlexibleTimeWindow: { Mode: 'OFF' },
  ActionAfterCompletion: 'DELETE',
  Target: {
    Arn: `${scheduler.functionArnPrefix}${config.jobFunction(s.job) ?? s.job}`,
    RoleArn: scheduler.roleArn,
    Input: JSON.stringify(s.payload),
    RetryPolicy: { MaximumRetryAttempts: SCHEDULER_RETRIES },
  },
});

let cached: { key: string; client: SchedulerClient } | undefined;
const schedulerClient = (endpoint: string | undefined): SchedulerClient => {
  const key = `${endpoint ?? ''}|${config.region()}`;
  if (cached?.key !== key) {
    cached?.client.destroy();
    cached = { key, client: new SchedulerClient({ region: config.region(), ...localEndpoint(endpoint) }) };
  }
  return cached.client;
};

/** This process's schedules (no scheduler configured), by name. */
const inProcess = new Map<string, { schedule: OneTimeSchedule; timer: ReturnType<typeof setTimeout> }>();
/** setTimeout's longest delay; a later time re-arms when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const arm = (schedule: OneTimeSchedule): void => {
  const wait = Math.min(MAX_TIMER_MS, Math.max(0, schedule.atSeconds * 1000 - nowMs()));
  const earlier = inProcess.get(schedule.name);
  if (earlier) clearTimeout(earlier.timer);
  const timer = setTimeout(() => void fireDueSchedules(), wait);
  // A schedule never keeps a process (a test run) alive by itself.
  timer.unref();
  inProcess.set(schedule.name, { schedule, timer });
};

/** Creates or replaces the schedule of `schedule.name`. */
export const putSchedule = async (schedule: OneTimeSchedule): Promise<void> => {
  const scheduler = config.scheduler();
  if (!scheduler) return arm(schedule);
  const client = schedulerClient(scheduler.endpoint);
  const input = buildScheduleInput(schedule, scheduler);
  try {
    await client.send(new CreateScheduleCommand(input));
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
    await client.send(new UpdateScheduleCommand(input));
  }
};

/** Deletes the schedule of `name`; one already run (and so deleted) or never made is no error. */
export const deleteSchedule = async (name: string): Promise<void> => {
  const scheduler = config.scheduler();
  if (!scheduler) {
    const entry = inProcess.get(name);
    if (entry) clearTimeout(entry.timer);
    inProcess.delete(name);
    return;
  }
  try {
    await schedulerClient(scheduler.endpoint).send(new DeleteScheduleCommand({ Name: name, GroupName: scheduler.group }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
};

/**
 * Starts the job of every in-process schedule whose time has come on the service clock, and
 * removes it (re-arms the rest). Tests call it after moving the clock, then settleJobs.
 */
export const fireDueSchedules = async (): Promise<void> => {
  const now = nowMs();
  for (const { schedule } of [...inProcess.values()]) {
    if (schedule.atSeconds * 1000 > now) {
      arm(schedule);
      continue;
    }
    clearTimeout(inProcess.get(schedule.name)!.timer);
    inProcess.delete(schedule.name);
    await startJob(schedule.job, schedule.payload);
  }
};

/** The in-process schedules, for tests: what is scheduled, by name. */
export const listInProcessSchedules = (): OneTimeSchedule[] => [...inProcess.values()].map((e) => e.schedule);

/**
 * Test-only: forgets every in-process schedule and stops its timer. Every handler test ends with it
 * (test/helpers/per-file-tables.ts): a timer left armed would fire during a later test, or while
 * the worker runs the next file, into modules jest has torn down.
 */
export const clearInProcessSchedules = (): void => {
  for (const { timer } of inProcess.values()) clearTimeout(timer);
  inProcess.clear();
};
