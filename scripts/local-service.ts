// The whole service on this machine, as `npm start` runs it and the e2e tests start it:
// DynamoDB Local (unless an endpoint is given), the tables of tables/, the development data set,
// and serverless-offline serving every route under http://localhost:<port>/api/v1, behind a thin
// front (local-gateway.ts) that turns the emulator's own error answers into the API's envelope.
// serverless-offline runs the handlers in its own process (--useInProcess): one module load per
// handler, shared by concurrent calls, instead of a worker per concurrent call that compiles the
// TypeScript again (a burst of 30 first calls timed out; docs/architecture.md, "Running").
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { config } from '../lib/config';
import { closeClients, tableName } from '../lib/store/client';
import { startStreamPoller, type StreamPoller } from './local-stream';
import { createTables, freePort, settlesWithin, startDynamoLocal, waitForDynamo, type LocalDynamo } from './local-dynamo';
import { startLocalBouncer, type LocalBouncer } from './local-bouncer';
import { startLocalGateway, stopLocalGateway } from './local-gateway';
import { startAsyncInvoker, type AsyncInvoker } from './local-lambda';
import { startLocalS3, type LocalS3 } from './local-s3';
import { startLocalSes, type LocalSes } from './local-ses';
import { seedDevRealm } from './seed';
import { startLocalSearch, type LocalSearch } from './local-search';
import { startLocalScheduler } from './local-scheduler';
import { doReindexRealm } from '../lib/actions/messages/search-index';
import { listAllForOperator } from '../lib/store/realms';

const ROOT = resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JOBS } = require('../functions/routes.js') as { JOBS: Record<string, { destinations?: { onFailure?: unknown } }> };
const SERVERLESS_BIN = require.resolve('serverless/bin/serverless.js', { paths: [ROOT] });

export type LocalServiceOptions = {
  /** HTTP port of serverless-offline; a free one when 0. */
  port: number;
  /** Use this DynamoDB endpoint instead of starting DynamoDB Local. */
  dynamodbEndpoint?: string;
  /** Use this S3 endpoint (or AWS's S3 when "aws") instead of starting the local S3 store. */
  s3Endpoint?: string;
  /** Use this SES endpoint (or AWS's SES when "aws") instead of starting the local SES store. */
  sesEndpoint?: string;
  /** Keep DynamoDB Local's data on disk in this folder (in memory otherwise). */
  dataDir?: string;
  /**
   * Keep the search database's data (PGlite) in this folder (in memory otherwise), unless the
   * environment names a search endpoint (SEARCH_ENDPOINT). Without `dataDir` (DynamoDB in memory,
   * seeded afresh), every organization is reindexed once the database is up.
   */
  searchDataDir?: string;
  /**
   * Start the local push bouncer (local-bouncer.ts) and register this server with it, unless the
   * environment names a bouncer (PUSH_BOUNCER_URL): push notifications are then configured.
   */
  pushBouncer?: boolean;
  extraUsers?: number;
  /** Where progress lines, the local invoker's job failures and (unless `offlineLog`) serverless-offline's output go. */
  log?: (line: string) => void;
  /** Where serverless-offline's own output goes, line by line (its route listing, a line per request, the handlers' logs). */
  offlineLog?: (line: string) => void;
  /** Extra environment for the handlers (e.g. EVENTS_LONGPOLL_SECONDS for faster e2e tests). */
  env?: Record<string, string>;
  /** Where jobs that failed every attempt are kept for `npm run replay-deliveries -- --file` (local-lambda.ts). */
  deadLetterFile?: string;
  /** Aborting stops whatever was started so far and makes the start reject (Ctrl-C during startup). */
  signal?: AbortSignal;
};

export type LocalService = {
  baseUrl: string;
  port: number;
  dynamodbEndpoint: string;
  /** Stops serverless-offline and, when started here, DynamoDB Local. Safe to call twice. */
  stop: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const isLocalEndpoint = (endpoint: string): boolean => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(endpoint);

/** Whether a process with this id exists (a zombie counts until it is reaped). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops the process group that `pid` leads (started with `detached: true`): SIGTERM, then SIGKILL
 * if `exited` (the leader is gone) has not settled after a grace period.
 */
export const stopProcessGroupOf = async (pid: number, exited: Promise<void>, graceMs = 5000): Promise<void> => {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  if (!(await settlesWithin(exited, graceMs))) {
    signal('SIGKILL');
    await exited;
  }
  // Worker threads die with the process; anything else left in the group goes too.
  signal('SIGKILL');
};

/** Stops a child process group started with `detached: true`. */
export const stopProcessGroup = async (child: ChildProcess, graceMs = 5000): Promise<void> => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  await stopProcessGroupOf(child.pid, new Promise<void>((r) => child.once('exit', () => r())), graceMs);
};

// A watchdog per child: if the owner (npm start, or a jest worker) dies without stopping its
// children (SIGKILL, a crash), the watchdog stops the child; it exits on its own once the child is
// gone. A shell loop, so that it costs next to nothing.
const WATCHDOG = `
owner=$1 target=$2 t=$3
while kill -0 "$owner" 2>/dev/null && kill -0 "$target" 2>/dev/null; do sleep 1; done
kill -0 "$target" 2>/dev/null || exit 0
kill -TERM "$t" 2>/dev/null
i=0
while [ $i -lt 5 ] && kill -0 "$target" 2>/dev/null; do sleep 1; i=$((i + 1)); done
kill -KILL "$t" 2>/dev/null
exit 0
`;

/** Stops `child` (its whole process group when `group`) if this process dies first. */
export const watchOwner = (child: ChildProcess, group: boolean): void => {
  if (child.pid === undefined) return;
  const target = group ? `-${child.pid}` : String(child.pid);
  spawn('/bin/sh', ['-c', WATCHDOG, 'watchdog', String(process.pid), String(child.pid), target], {
    detached: true,
    stdio: 'ignore',
  }).unref();
};

/** Resolves once the HTTP server answers at all (any status), or rejects when the child dies. */
const waitForHttp = async (url: string, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`serverless-offline exited (${child.exitCode ?? child.signalCode})`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`serverless-offline did not answer at ${url} within ${timeoutMs / 1000} s`);
};

export type OfflineOptions = {
  dynamodbEndpoint: string;
  tables: { main: string; events: string };
  /** Extra environment for the handlers. */
  env?: Record<string, string>;
  /**
   * Where its output goes: a line callback, or a file descriptor (output that outlives its caller;
   * the callback then gets only the local invoker's lines).
   */
  log?: (line: string) => void;
  /** Where its own output lines go instead of `log` (the local invoker's stay on `log`). */
  outputLog?: (line: string) => void;
  outputFd?: number;
  /** Called with the process as soon as it is spawned. */
  onSpawn?: (child: ChildProcess) => void;
  /** Where the jobs that failed every attempt are recorded for replay (local-lambda.ts); none: only logged. */
  deadLetterFile?: string;
};

/** The deployed name of a function at the local stage (serverless.yml: service `chat`, stage `local`). */
export const localFunctionName = (name: string): string => `chat-local-${name}`;

/**
 * Spawns serverless-offline serving every route on a free port (its own process group, watched:
 * it stops when this process dies). Resolves once it answers HTTP; rejects (after stopping it) if
 * it exits or does not answer in time.
 */
export const startOffline = async (
  opts: OfflineOptions,
): Promise<{ child: ChildProcess; port: number; lambdaPort: number; invoker: AsyncInvoker }> => {
  const offlinePort = await freePort();
  const lambdaPort = await freePort();
  const log = opts.log ?? (() => undefined);
  // Jobs are invoked asynchronously through it, as Lambda would (local-lambda.ts): serverless-offline's
  // own Event invocations do not await the handler, and a failed job would end its process.
  const lambda = await startAsyncInvoker({
    target: `http://localhost:${lambdaPort}`,
    deadLettered: new Set(Object.entries(JOBS).flatMap(([name, job]) => (job.destinations?.onFailure ? [localFunctionName(name)] : []))),
    deadLetterFile: opts.deadLetterFile,
    log,
  });
  const scheduler = await startLocalScheduler({ invokerEndpoint: lambda.endpoint, log });
  // Stopping the invoker stops the scheduler in front of it first.
  const invoker: AsyncInvoker = {
    endpoint: lambda.endpoint,
    stop: async () => {
      await scheduler.stop();
      await lambda.stop();
    },
  };
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...opts.env,
    // serverless-offline loads the TypeScript handlers itself (tsx) instead of bundling them.
    CHAT_BUNDLE: 'false',
    DYNAMODB_ENDPOINT: opts.dynamodbEndpoint,
    TABLE_MAIN: opts.tables.main,
    TABLE_EVENTS: opts.tables.events,
    UPLOADS_BUCKET: config.uploadsBucket(),
    // The built web app (webapp/build.ts): serverless-offline sets LAMBDA_TASK_ROOT to Lambda's
    // /var/task, where lib/config.ts would look for it otherwise.
    WEBAPP_DIST: resolve(opts.env?.WEBAPP_DIST ?? process.env.WEBAPP_DIST ?? 'webapp/dist'),
    ...(process.env.S3_ENDPOINT ? { S3_ENDPOINT: process.env.S3_ENDPOINT } : {}),
    ...(process.env.SES_ENDPOINT ? { SES_ENDPOINT: process.env.SES_ENDPOINT } : {}),
    // Background jobs are asynchronous invocations of their functions, as deployed (serverless.yml
    // names the functions), through the local asynchronous invoker.
    LAMBDA_ENDPOINT: invoker.endpoint,
    // One-time schedules (scheduled messages, reminders) through the local Scheduler, which
    // invokes their job through the same invoker at their time (scripts/local-scheduler.ts).
    SCHEDULER_ENDPOINT: scheduler.endpoint,
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/local-scheduler',
    FUNCTION_ARN_PREFIX: '',
    SLS_TELEMETRY_DISABLED: '1',
    // Outgoing webhook bots run on this machine while developing (lib/store/outgoing-webhooks.ts);
    // a deployment never allows internal addresses.
    OUTGOING_WEBHOOK_PRIVATE_NETWORKS: process.env.OUTGOING_WEBHOOK_PRIVATE_NETWORKS ?? 'allow',
  };
  // serverless.yml sets these for the handlers; --param passes this process's values through.
  // A stage must have its own upload URL secret (settings/index.js): a fresh one per start,
  // unless the environment has one (file URLs are valid for a minute anyway).
  env.UPLOAD_URL_SECRET ||= randomBytes(32).toString('hex');
  const params = [
    `tableMain=${env.TABLE_MAIN}`,
    `tableEvents=${env.TABLE_EVENTS}`,
    `uploadsBucket=${env.UPLOADS_BUCKET}`,
    `uploadUrlSecret=${env.UPLOAD_URL_SECRET}`,
    // Development mode is whatever this process's DEVELOPMENT_MODE says (npm start turns it on).
    ...(env.DEVELOPMENT_MODE ? [`developmentMode=${env.DEVELOPMENT_MODE}`] : []),
    ...(env.EVENTS_LONGPOLL_SECONDS ? [`eventsLongPollSeconds=${env.EVENTS_LONGPOLL_SECONDS}`] : []),
    ...(env.EMAIL_SENDER ? [`emailSender=${env.EMAIL_SENDER}`] : []),
    ...(env.PUSH_BOUNCER_URL ? [`pushBouncerUrl=${env.PUSH_BOUNCER_URL}`] : []),
    ...(env.ZULIP_ORG_ID ? [`zulipOrgId=${env.ZULIP_ORG_ID}`] : []),
    ...(env.ZULIP_ORG_KEY ? [`zulipOrgKey=${env.ZULIP_ORG_KEY}`] : []),
  ];
  const args = [
    SERVERLESS_BIN,
    'offline',
    'start',
    '--stage',
    'local',
    '--httpPort',
    String(offlinePort),
    '--lambdaPort',
    String(lambdaPort),
    '--localEnvironment',
    '--useInProcess',
    ...params.flatMap((p) => ['--param', p]),
  ];
  const output = opts.outputFd ?? 'pipe';
  const child = spawn(process.execPath, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', output, output] });
  opts.onSpawn?.(child);
  watchOwner(child, true);
  child.once('exit', () => void invoker.stop());
  // A pipe nobody reads would fill and stall the child: read it even without a log.
  if (opts.outputFd === undefined) {
    const outputLog = opts.outputLog ?? log;
    // Whole lines only: a long line (a handler's JSON error log) may arrive in several chunks.
    const forwarder = () => {
      let rest = '';
      return (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop()!;
        for (const line of lines) if (line.trim() !== '') outputLog(line);
      };
    };
    child.stdout!.on('data', forwarder());
    child.stderr!.on('data', forwarder());
  }
  try {
    await waitForHttp(`http://localhost:${offlinePort}/api/v1/`, child, 60000);
  } catch (error) {
    await stopProcessGroup(child);
    await invoker.stop();
    throw error;
  }
  return { child, port: offlinePort, lambdaPort, invoker };
};

/**
 * The service's own address as the handlers answer it (realm_url, the URLs in messages): the
 * environment's EXTERNAL_URL, else this machine at the port it serves, so that a client told the
 * answer of `PORT=8080 npm start` keeps talking to port 8080.
 */
const externalUrlFor = (port: number): string => process.env.EXTERNAL_URL || `http://localhost:${port}`;

/** Starts everything; on failure, stops whatever it started before rethrowing. */
export const startLocalService = async (opts: LocalServiceOptions): Promise<LocalService> => {
  const log = opts.log ?? (() => undefined);
  let dynamo: LocalDynamo | undefined;
  let s3: LocalS3 | undefined;
  let ses: LocalSes | undefined;
  let bouncer: LocalBouncer | undefined;
  let offline: ChildProcess | undefined;
  let gateway: Server | undefined;
  let poller: StreamPoller | undefined;
  let search: LocalSearch | undefined;
  // Stops run one after the other: a later call also stops what was started after an earlier one.
  let stopped: Promise<void> = Promise.resolve();
  const stop = (): Promise<void> => {
    stopped = stopped.then(async () => {
      const [g, o, d, s, e, p, b, q] = [gateway, offline, dynamo, s3, ses, poller, bouncer, search];
      search = undefined;
      bouncer = undefined;
      poller = undefined;
      gateway = undefined;
      offline = undefined;
      dynamo = undefined;
      s3 = undefined;
      ses = undefined;
      await p?.stop();
      if (g) await stopLocalGateway(g);
      if (o) await stopProcessGroup(o);
      closeClients();
      await s?.stop();
      await e?.stop();
      await b?.stop();
      await q?.stop();
      await d?.stop();
    });
    return stopped;
  };
  const checkAborted = (): void => {
    if (opts.signal?.aborted) throw new Error('startup aborted');
  };
  // Stopping DynamoDB Local at once also ends a long seed with an error, and so the start.
  const onAbort = () => void stop();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    checkAborted();
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    if (opts.dynamodbEndpoint) {
      process.env.DYNAMODB_ENDPOINT = opts.dynamodbEndpoint;
      log(`Using DynamoDB at ${opts.dynamodbEndpoint}`);
    } else {
      const dbPath = opts.dataDir ? resolve(ROOT, opts.dataDir) : undefined;
      if (dbPath) mkdirSync(dbPath, { recursive: true });
      dynamo = await startDynamoLocal({ dbPath });
      watchOwner(dynamo.process, false);
      checkAborted();
      log(`DynamoDB Local at ${dynamo.endpoint} (${dbPath ? `data in ${dbPath}` : 'in memory'})`);
    }
    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    // DynamoDB Local accepts any credentials; a real endpoint gets the machine's own.
    if (isLocalEndpoint(endpoint)) {
      process.env.AWS_ACCESS_KEY_ID ??= 'local';
      process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    }
    process.env.AWS_REGION ??= process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
    if (opts.s3Endpoint === 'aws') {
      delete process.env.S3_ENDPOINT;
      log(`Using S3 bucket ${config.uploadsBucket()}`);
    } else if (opts.s3Endpoint) {
      process.env.S3_ENDPOINT = opts.s3Endpoint;
      log(`Using S3 at ${opts.s3Endpoint}, bucket ${config.uploadsBucket()}`);
    } else {
      s3 = await startLocalS3();
      checkAborted();
      log(`Local S3 store at ${s3.endpoint} (bucket ${config.uploadsBucket()}, files in a temporary folder)`);
    }
    if (opts.sesEndpoint === 'aws') {
      delete process.env.SES_ENDPOINT;
      log(`Sending email through SES as ${config.emailSender()}`);
    } else if (opts.sesEndpoint) {
      process.env.SES_ENDPOINT = opts.sesEndpoint;
      log(`Using SES at ${opts.sesEndpoint}`);
    } else {
      ses = await startLocalSes();
      checkAborted();
      log(`Local SES store at ${ses.endpoint} (emails kept in memory; listed at /emails/ in development mode)`);
    }
    if (opts.pushBouncer && !process.env.PUSH_BOUNCER_URL) {
      bouncer = await startLocalBouncer();
      checkAborted();
      // A fresh registration per start: the local bouncer keeps nothing across starts.
      Object.assign(process.env, {
        PUSH_BOUNCER_URL: bouncer.url,
        ZULIP_ORG_ID: randomUUID(),
        ZULIP_ORG_KEY: randomBytes(32).toString('hex'),
      });
      log(`Local push bouncer at ${bouncer.url} (notifications kept in memory; listed at ${bouncer.url}/__test/state)`);
    }
    if (!process.env.SEARCH_ENDPOINT) {
      const searchDir = opts.searchDataDir ? resolve(ROOT, opts.searchDataDir) : undefined;
      if (searchDir) mkdirSync(searchDir, { recursive: true });
      search = await startLocalSearch({ dataDir: searchDir });
      process.env.SEARCH_ENDPOINT = search.endpoint;
      log(`Search database (PGlite) at ${search.endpoint} (${searchDir ? `data in ${searchDir}` : 'in memory'})`);
    }
    closeClients();
    await waitForDynamo();
    await createTables();
    const started = Date.now();
    const written = await seedDevRealm({ extraUsers: opts.extraUsers ?? 0, log });
    log(
      `Tables ${tableName('main')} and ${tableName('events')} ready; seeded ${written} new items in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    if (search && !opts.dataDir) {
      // DynamoDB was seeded afresh: the search rows of an earlier run are of other messages.
      const ready = search.ready;
      void ready
        .then(async (ms) => {
          let written = 0;
          for (const realm of await listAllForOperator()) written += await doReindexRealm(realm.id);
          log(`Search database up after ${(ms / 1000).toFixed(1)} s; indexed ${written} messages`);
        })
        .catch((error: unknown) => log(`Search index not rebuilt: ${String((error as Error).message ?? error)}`));
    }
    checkAborted();
    const port = opts.port || (await freePort());
    const { port: offlinePort, lambdaPort } = await startOffline({
      dynamodbEndpoint: endpoint,
      tables: { main: tableName('main'), events: tableName('events') },
      env: { EXTERNAL_URL: externalUrlFor(port), ...opts.env },
      log,
      outputLog: opts.offlineLog,
      // Registered at once, so that a stop during startup (Ctrl-C) stops it too.
      onSpawn: (child) => (offline = child),
      deadLetterFile: opts.deadLetterFile,
    });
    if (opts.deadLetterFile)
      log(`Jobs that fail every attempt are kept in ${opts.deadLetterFile} (npm run replay-deliveries -- --file <it>)`);
    checkAborted();
    gateway = await startLocalGateway(port, offlinePort);
    // Lambda's event source on the main table's stream: deliveries a request could not finish, and the search index.
    poller = await startStreamPoller({
      lambdaEndpoint: `http://localhost:${lambdaPort}`,
      functionName: (consumer) => localFunctionName(consumer),
      log,
    });
    const baseUrl = `http://localhost:${port}/api/v1`;
    return { baseUrl, port, dynamodbEndpoint: endpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
};
