// Work a request hands off to run after its response: deployed, an asynchronous invocation of the
// job's own Lambda function (InvocationType Event: Lambda queues it, runs it once the request has
// answered, and retries it twice on failure); with no function configured (the handler tests and
// the benchmarks, which run handlers in one process), a task of this process, tried up to three
// times as Lambda would. `npm start` and the e2e tests invoke the function through
// serverless-offline's Lambda endpoint, as deployed. Either way the request path is the same call,
// `startJob`, and a job runs its registered `run` with the same payload, so a job must be
// idempotent: it may run more than once.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '../config';
import { localEndpoint } from './client';
import { log } from '../log';

/** A job's name: its Lambda function is the one config.jobFunction names for it. */
export type JobName =
  'messageFanout' | 'messageMove' | 'outgoingWebhook' | 'push' | 'scheduledDelivery' | 'realmExport' | 'realmImport' | 'sendDigests';

/** What one run of a job does. */
export type JobRun<P> = (payload: P) => Promise<void>;

/**
 * A job as the registry (lib/actions/jobs.ts JOBS) lists it: `load` imports the module that runs it
 * and returns its run, so a process loads a job's code only when it first runs the job.
 */
export type JobEntry<P> = { load: () => Promise<JobRun<P>> };

const runners = new Map<JobName, () => Promise<JobRun<unknown>>>();

/**
 * What this process runs for a job started with no function configured (lib/actions/jobs.ts JOBS
 * for all of them, through runJobsInProcess); a test or benchmark may put its own in for one.
 */
export const defineJob = <P>(name: JobName, run: JobRun<P>): void => {
  runners.set(name, async () => run as JobRun<unknown>);
};

/**
 * Runs every job in this process when no function is configured for it: an entry point's choice.
 * Nothing is loaded here: a job's module is imported when the job first runs.
 */
export const runJobsInProcess = (jobs: { [N in JobName]: JobEntry<never> }): void => {
  for (const [name, job] of Object.entries(jobs)) runners.set(name as JobName, job.load as () => Promise<JobRun<unknown>>);
};

/** Runs a job now (the in-process runner; a job's Lambda function calls its entry directly). */
const runJob = async (name: JobName, payload: unknown): Promise<void> => {
  const load = runners.get(name);
  if (!load) throw new Error(`job ${name}: no function is configured for it, and this process does not run it (runJobsInProcess)`);
  const run = await load();
  await run(payload);
};

let cached: { key: string; client: LambdaClient } | undefined;
/** The Lambda client of this process (LAMBDA_ENDPOINT locally), for jobs and for routes (functions.ts). */
export const lambdaClient = (): LambdaClient => {
  const endpoint = config.lambdaEndpoint();
  const key = `${endpoint ?? ''}|${config.region()}`;
  if (cached?.key !== key) {
    cached?.client.destroy();
    cached = { key, client: new LambdaClient({ region: config.region(), ...localEndpoint(endpoint) }) };
  }
  return cached.client;
};

/** In-process jobs not finished yet, and the errors of those that failed every attempt (see settleJobs). */
const running = new Set<Promise<void>>();
const failed: unknown[] = [];
const IN_PROCESS_ATTEMPTS = 3;

/** While set, in-process jobs wait here before they run (holdJobs). */
let held: (() => void)[] | undefined;

/** Makes in-process jobs wait until releaseJobs: a test can then look at the state a request leaves before its jobs. */
export const holdJobs = (): void => {
  held ??= [];
};

/** Lets held jobs run, and later ones run at once again. */
export const releaseJobs = (): void => {
  const waiting = held ?? [];
  held = undefined;
  for (const resume of waiting) resume();
};

const runInProcess = async (name: JobName, payload: unknown): Promise<void> => {
  // Never in the request's own turn: the response goes first, as with an asynchronous invocation.
  await new Promise((resolve) => setImmediate(resolve));
  if (held) await new Promise<void>((resolve) => held!.push(resolve));
  for (let attempt = 1; ; attempt += 1) {
    try {
      await runJob(name, payload);
      return;
    } catch (error) {
      log.error('job failed', { job: name, attempt, error: String((error as Error).stack ?? error) });
      if (attempt >= IN_PROCESS_ATTEMPTS) {
        failed.push(error);
        return;
      }
    }
  }
};

/**
 * Starts a job to run after the current request: returns once it is handed off (queued by Lambda,
 * or scheduled in this process), not when it is done. The payload is JSON (Lambda's asynchronous
 * limit is 256 KB: pass ids, not lists).
 */
export const startJob = async (name: JobName, payload: unknown): Promise<void> => {
  const functionName = config.jobFunction(name);
  if (functionName === undefined) {
    const job = runInProcess(name, JSON.parse(JSON.stringify(payload)));
    running.add(job);
    void job.finally(() => running.delete(job));
    return;
  }
  await lambdaClient().send(
    new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(payload)) }),
  );
};

/**
 * Waits until every in-process job started so far (and any they start) has finished; releases held
 * ones. Throws if one failed every attempt since the last call, so a test or benchmark sees it.
 */
export const settleJobs = async (): Promise<void> => {
  releaseJobs();
  while (running.size > 0) await Promise.all([...running]);
  if (failed.length > 0) throw new AggregateError(failed.splice(0), 'a background job failed every attempt');
};
