// Connected clients (`npm run bench connected`): 1,000 waiting polls (BENCH_CONNECTED_SIZES, e.g.
// "1000,5000") held in this one Node.js process against DynamoDB Local, as one execution
// environment of a long-lived process would hold them, sharing one reader per organization stream
// shard head (lib/events/watcher.ts). Each poll is a call of the GET /events Lambda handler itself
// (authentication, parameters, the response's JSON), with the credentials its queue was registered
// with. It prints memory and CPU per waiting poll, DynamoDB requests by kind and read units per
// second in all and per waiting client (at what DynamoDB charges: a read finding nothing costs half
// a unit, or one if consistent, where DynamoDB Local reports none), and delivery latency after a
// send (one-user events during the window, then one organization-wide event to every client), and
// prices a connected client-month at named list prices on managed instances and on standard Lambda.
// Settings: BENCH_CONNECTED_SIZES (1000), BENCH_CONNECTED_SECONDS (two long-polls: the clients'
// cycles start together, so a window of one and a fraction would count some of them twice),
// BENCH_CONNECTED_SHARDS (the deployed eventsRealmShards).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as getEvents } from '../functions/events/get';
import { config } from '../lib/config';
import { registerQueue, type ApiEventWithId } from '../lib/events/queues';
import { credentialOf } from '../lib/http/auth';
import { sendEvent } from '../lib/events/send';
import { POLL_INTERVAL_GROWTH, watcherStats } from '../lib/events/watcher';
import type { User } from '../lib/models/user';
import { documentClient } from '../lib/store/client';
import type { QueueState } from '../lib/store/event-queues';
import { deployedSettings, PRICES } from './bench-capacity';
import { ALB_POLL_SECONDS, albEdgeItems, withPollLength } from './bench-connected-edges';
import { BENCH_QUEUE, percentile } from './bench-util';

const REALM = 2;
const FIRST_USER = 900_000;
const SIZES = (process.env.BENCH_CONNECTED_SIZES ?? '1000').split(',').map(Number);
const WINDOW_MS = Number(process.env.BENCH_CONNECTED_SECONDS ?? 2 * config.longPollSeconds()) * 1000;
const SECONDS_PER_MONTH = 30 * 86400;

/** Whose DynamoDB requests these are: the producer's sends, or the waiting clients' (the default). */
const producing = new AsyncLocalStorage<true>();
type Usage = { requests: number; read: number; write: number; headUnits: number; byCommand: Record<string, number> };
const emptyUsage = (): Usage => ({ requests: 0, read: 0, write: 0, headUnits: 0, byCommand: {} });
const usage = { consumer: emptyUsage(), producer: emptyUsage() };

/**
 * What DynamoDB charges for a request at least, where DynamoDB Local reports less (nothing for a
 * read that finds no item): half a read unit per item asked for (one if consistent), one write
 * unit per item written.
 */
const minimumUnits = (command: string, input: Record<string, any>): number => {
  const per = (consistent: unknown) => (consistent ? 1 : 0.5);
  if (/^(Get|Query|Scan)/.test(command)) return per(input.ConsistentRead);
  if (/^BatchGet/.test(command))
    return Object.values(input.RequestItems ?? {}).reduce((n: number, t: any) => n + (t.Keys?.length ?? 0) * per(t.ConsistentRead), 0);
  if (/^BatchWrite/.test(command)) return Object.values(input.RequestItems ?? {}).reduce((n: number, t: any) => n + (t.length ?? 0), 0);
  if (/^TransactWrite/.test(command)) return 2 * (input.TransactItems?.length ?? 0);
  return 1;
};
let counting = false;
let installed = false;
/** Counts each request's capacity for the producer or the consumers (the reader's timers run in a consumer's context). */
const installCounter = (): void => {
  if (installed) return;
  installed = true;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (!counting) return result;
      const tally = producing.getStore() ? usage.producer : usage.consumer;
      tally.requests += 1;
      const command = String(context.commandName);
      // Stream reads by kind: the organization's shard streams or users' own.
      const pk = String((args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues?.[':pk'] ?? '');
      const kind =
        /^Query/.test(command) && pk.startsWith('STREAM#')
          ? `${command} ${pk.startsWith('STREAM#U') ? 'user stream' : 'shard stream'}`
          : command;
      tally.byCommand[kind] = (tally.byCommand[kind] ?? 0) + 1;
      // A shard head check (the watcher's one-item eventually consistent read) is counted apart.
      const input = args.input as { RequestItems?: Record<string, { Keys?: { sk?: unknown }[]; ConsistentRead?: boolean }> };
      const batch = Object.values(input.RequestItems ?? {});
      const headCheck =
        /^BatchGet/.test(command) && batch.length === 1 && (batch[0].Keys ?? []).every((k) => k.sk === 'HEAD') && !batch[0].ConsistentRead;
      const reported = (
        [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity ?? []].flat() as { CapacityUnits?: number }[]
      ).reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      const units = Math.max(reported, minimumUnits(command, args.input as Record<string, any>));
      if (/Put|Update|Delete|Write/.test(command)) tally.write += units;
      else if (headCheck) tally.headUnits += units;
      else tally.read += units;
      return result;
    },
    { step: 'initialize', name: 'benchConnectedUsage' },
  );
};

/**
 * List prices (us-east-1, USD) besides PRICES: Lambda Managed Instances bill the EC2 instance's
 * on-demand price plus a 15% management fee and $0.20 per million requests, no duration; Lambda
 * launches 3 instances at least (one per Availability Zone). c7g.large: 2 vCPU, 4 GiB (2 GiB per
 * vCPU, the smallest ratio an environment may have), $0.0725 an hour; one execution environment
 * of 1 vCPU each, two per instance. CloudWatch Logs ingestion $0.50 per GB.
 */
export const MANAGED_PRICES = {
  instanceHour: 0.0725,
  instanceType: 'c7g.large',
  managementFee: 0.15,
  minInstances: 3,
  environmentsPerInstance: 2,
  /** The most concurrent requests one environment takes (PerExecutionEnvironmentMaxConcurrency). */
  maxConcurrency: 1600,
  logsPerGb: 0.5,
} as const;
/**
 * Logged per poll that delivers events: the handler's request line in Lambda's JSON format, about.
 * Lambda's own START/END/REPORT lines are not written (functions/routes.js QUIET_LOGS), and an idle
 * poll's line only for the sample config.quietRequestLogSample.
 */
const LOG_BYTES_PER_LOGGED_POLL = 300;

type Edge = 'httpApi' | 'alb';

/** What one waiting client costs per second, measured (all but the shard head checks, which are modelled). */
export type ConnectedRates = {
  pollsPerSec: number;
  /** Polls that ended with only a heartbeat, a second (a subset of pollsPerSec). */
  idlePollsPerSec: number;
  readUnitsPerSec: number;
  writeUnitsPerSec: number;
  /** Reads of one shard head per second by one process's reader while polls wait on it. */
  headReadsPerShardPerSec: number;
  /** vCPU and MB one waiting poll takes in a process holding many. */
  vcpuPerPoll: number;
  mbPerPoll: number;
};

/** Checks per second of a lone waiting poll (standard Lambda: one poll per environment, its own reader). */
export const lonePollChecksPerSec = (): number => {
  let checks = 0;
  for (
    let t = 0, i = config.pollMinIntervalMs();
    t + i < config.longPollSeconds() * 1000;
    t += i, i = Math.min(config.pollMaxIntervalMs(), Math.ceil(i * POLL_INTERVAL_GROWTH))
  )
    checks += 1;
  return checks / config.longPollSeconds();
};

/** Polls a second that write a request line: those that delivered, and the sample of idle ones. */
const loggedPollsPerSec = (r: ConnectedRates): number =>
  r.pollsPerSec - r.idlePollsPerSec + r.idlePollsPerSec * config.quietRequestLogSample();

/** Waiting polls one environment holds: the concurrency cap, half a vCPU of the measured CPU, half its memory. */
export const pollsPerEnvironment = (r: ConnectedRates): number =>
  Math.max(1, Math.floor(Math.min(MANAGED_PRICES.maxConcurrency, 0.5 / Math.max(r.vcpuPerPoll, 1e-9), 1024 / Math.max(r.mbPerPoll, 1e-9))));

/**
 * A connected client-month, item by item, on managed instances and on standard Lambda, for
 * `clients` clients, behind the HTTP API (today's edge) or CloudFront and an ALB (scripts/bench-connected-edges.ts).
 */
export const connectedCost = (
  measured: ConnectedRates,
  clients: number,
  shards: number,
  lambdaMemoryMb: number,
  edge: Edge = 'httpApi',
) => {
  const month = SECONDS_PER_MONTH;
  const r = edge === 'alb' ? withPollLength(measured, ALB_POLL_SECONDS) : measured;
  const perEnv = pollsPerEnvironment(r);
  const environments = Math.ceil(clients / perEnv);
  const instances = Math.max(MANAGED_PRICES.minInstances, Math.ceil(environments / MANAGED_PRICES.environmentsPerInstance));
  // Each environment reads the heads of the shards its clients are on.
  const shardsPerEnv = Math.min(shards, Math.ceil(clients / environments));
  const managedHeadUnits = (environments * shardsPerEnv * r.headReadsPerShardPerSec * 0.5) / clients;
  const standardHeadUnits = lonePollChecksPerSec() * 0.5;
  const shared = {
    ...(edge === 'alb' ? albEdgeItems(r.pollsPerSec, clients, month) : { apiRequests: r.pollsPerSec * month * PRICES.httpApiRequest }),
    lambdaRequests: r.pollsPerSec * month * PRICES.lambdaRequest,
    dynamoWrites: r.writeUnitsPerSec * month * PRICES.dynamoWriteUnit,
    logs: ((loggedPollsPerSec(r) * month * LOG_BYTES_PER_LOGGED_POLL) / 1e9) * MANAGED_PRICES.logsPerGb,
  };
  const managed = {
    ...shared,
    instances: (instances * MANAGED_PRICES.instanceHour * (1 + MANAGED_PRICES.managementFee) * (month / 3600)) / clients,
    dynamoReads: (r.readUnitsPerSec + managedHeadUnits) * month * PRICES.dynamoReadUnit,
  };
  const standard = {
    ...shared,
    lambdaDuration: (lambdaMemoryMb / 1024) * month * PRICES.lambdaGbSecond,
    dynamoReads: (r.readUnitsPerSec + standardHeadUnits) * month * PRICES.dynamoReadUnit,
  };
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  return {
    managed,
    standard,
    managedTotal: sum(managed),
    standardTotal: sum(standard),
    readUnitsPerClient: r.readUnitsPerSec + managedHeadUnits,
    perEnv,
    instances,
  };
};

const money = (n: number) => `$${n < 1 ? n.toFixed(3) : n.toFixed(2)}`;
const items = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${money(v)}`)
    .join(', ');

/** The Authorization header of a benchmark client (the accounts need not exist: each poll is authenticated by its queue). */
const authorizationOf = (user: User): string =>
  `Basic ${Buffer.from(`bench-${user.id}@example.com:${String(user.id).padStart(32, 'k')}`).toString('base64')}`;

/** One GET /events through its Lambda handler, as API Gateway calls it. */
const pollHandler = async (user: User, queueId: string, lastEventId: number): Promise<ApiEventWithId[]> => {
  const event = {
    version: '2.0',
    routeKey: 'GET /api/v1/events',
    rawPath: '/api/v1/events',
    rawQueryString: '',
    headers: { host: 'localhost:3000', authorization: authorizationOf(user) },
    queryStringParameters: { queue_id: queueId, last_event_id: String(lastEventId) },
    requestContext: { http: { method: 'GET', path: '/api/v1/events' } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const response = await getEvents(event);
  const body = JSON.parse(String(response.body)) as { result: string; msg?: string; events?: ApiEventWithId[] };
  if (response.statusCode !== 200 || !body.events) throw new Error(`GET /events ${response.statusCode}: ${body.msg}`);
  return body.events;
};

const runSize = async (count: number, shards: number, base: number) => {
  const users = Array.from({ length: count }, (_, i) => ({ id: base + i, realmId: REALM }) as User);
  const queues: QueueState[] = [];
  for (let i = 0; i < users.length; i += 50)
    queues.push(
      ...(await Promise.all(
        users.slice(i, i + 50).map((u) => registerQueue(u, { ...BENCH_QUEUE, credential: credentialOf(authorizationOf(u)) })),
      )),
    );
  const memoryBefore = process.memoryUsage();
  const sentDone = new Map<string, number>();
  const sentStart = new Map<string, number>();
  const fromStart: number[] = [];
  const latencies = new Map<string, number[]>();
  let polls = 0;
  let idlePolls = 0;
  let failures = 0;
  let stop = false;
  let measuring = false;
  const consumers = users.map(async (user, i) => {
    let last = -1;
    // Independent clients: their cycles start spread over a long-poll, not together.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * config.longPollSeconds() * 1000));
    while (!stop) {
      let events;
      try {
        events = await pollHandler(user, queues[i].queueId, last);
      } catch (error) {
        // A client retries after a pause, as zulip-js does; the figures say how many polls failed.
        failures += 1;
        if (failures <= 3) console.error(`poll failed: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      const now = performance.now();
      if (measuring) polls += 1;
      if (measuring && events.every((e) => e.type === 'heartbeat')) idlePolls += 1;
      for (const e of events) {
        if (e.type !== 'alert_words') continue;
        const tag = e.alert_words[0];
        const list = latencies.get(tag) ?? [];
        latencies.set(tag, list);
        list.push(Math.max(0, now - (sentDone.get(tag) ?? now)));
        if (sentStart.has(tag)) fromStart.push(now - sentStart.get(tag)!);
      }
      if (events.length > 0) last = events[events.length - 1].id;
    }
  });
  // Warm-up: every client through its first long-poll (a new queue's first poll reads both of its
  // streams), started within one long-poll, so the window measures the steady cycles.
  await new Promise((resolve) => setTimeout(resolve, 2 * config.longPollSeconds() * 1000 + 3000));

  // The window: one-user events to random clients about once a second (each wakes its shard's polls once).
  const memorySamples: number[] = [];
  installCounter();
  for (const t of [usage.consumer, usage.producer]) Object.assign(t, emptyUsage());
  const headReadsBefore = watcherStats.reads;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  measuring = true;
  counting = true;
  const direct: string[] = [];
  let n = 0;
  while (performance.now() - started < WINDOW_MS) {
    await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 1000));
    memorySamples.push(process.memoryUsage().rss);
    const tag = `conn-${count}-${n++}`;
    const userId = users[Math.floor(Math.random() * count)].id;
    await producing.run(true, () => sendEvent(REALM, { type: 'alert_words', alert_words: [tag] }, { users: [userId] }));
    sentDone.set(tag, performance.now());
    direct.push(tag);
  }
  const seconds = (performance.now() - started) / 1000;
  measuring = false;
  counting = false;
  const cpu = process.cpuUsage(cpuBefore);
  const headReads = watcherStats.reads - headReadsBefore;
  const consumerUnits = { read: usage.consumer.read, write: usage.consumer.write };
  const consumerRequests = usage.consumer.requests;
  const byCommand = Object.entries(usage.consumer.byCommand)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c.replace(/Command$/, '')} ${(n / seconds).toFixed(1)}/s`)
    .join(', ');

  // Then one organization-wide event: its delivery to every client.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const wide = `conn-${count}-wide`;
  const wideStart = performance.now();
  await producing.run(true, () => sendEvent(REALM, { type: 'alert_words', alert_words: [wide] }, 'realm'));
  const wideSendMs = performance.now() - wideStart;
  sentDone.set(wide, performance.now());
  sentStart.set(wide, wideStart);
  const until = performance.now() + 60_000;
  while ((latencies.get(wide)?.length ?? 0) < count && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
  stop = true;
  await Promise.all(consumers);

  const directLatencies = direct.flatMap((t) => latencies.get(t) ?? []);
  const wideLatencies = latencies.get(wide) ?? [];
  const meanRss = memorySamples.reduce((a, b) => a + b, 0) / Math.max(1, memorySamples.length);
  const mbPerPoll = Math.max(0, meanRss - memoryBefore.rss) / 1e6 / count;
  const vcpuPerPoll = (cpu.user + cpu.system) / 1e6 / seconds / count;
  const headReadsPerSec = headReads / seconds;
  const activeShards = Math.min(shards, count);
  const rates: ConnectedRates = {
    pollsPerSec: polls / seconds / count,
    idlePollsPerSec: idlePolls / seconds / count,
    // Everything the consumers read but the head checks, which the cost model counts per environment
    // (at half a unit each: DynamoDB charges that for an item not found too, DynamoDB Local reports 0).
    readUnitsPerSec: consumerUnits.read / seconds / count,
    writeUnitsPerSec: consumerUnits.write / seconds / count,
    headReadsPerShardPerSec: headReadsPerSec / activeShards,
    vcpuPerPoll,
    mbPerPoll,
  };
  console.log(`\n### ${count.toLocaleString('en-US')} waiting polls in one process (${shards} shards, window ${seconds.toFixed(1)} s)\n`);
  console.log(
    `memory: rss +${((meanRss - memoryBefore.rss) / 1e6).toFixed(1)} MB while waiting, ${(mbPerPoll * 1000).toFixed(1)} KB per waiting poll`,
  );
  console.log(
    `CPU: ${((cpu.user + cpu.system) / 1e6 / seconds).toFixed(3)} vCPU in all, ${(vcpuPerPoll * 1e6).toFixed(0)} µs a second per waiting poll (this process also produces the events)`,
  );
  console.log(
    `DynamoDB (waiting clients; the producer's ${usage.producer.requests} requests apart): ${(consumerRequests / seconds).toFixed(1)} requests/s, ${(consumerUnits.read / seconds).toFixed(1)} read units/s in all, ` +
      `${(consumerUnits.read / seconds / count).toFixed(4)} per waiting client; ${(consumerUnits.write / seconds).toFixed(1)} write units/s; ` +
      `shard head reads ${headReadsPerSec.toFixed(1)}/s (${rates.headReadsPerShardPerSec.toFixed(2)} per shard); polls ${(polls / seconds).toFixed(1)}/s (${(polls / seconds / count).toFixed(3)} per client, ${((100 * idlePolls) / Math.max(1, polls)).toFixed(1)}% idle; an idle client makes ${(1 / config.longPollSeconds()).toFixed(3)})`,
  );
  console.log(`DynamoDB requests by kind (waiting clients, head checks included): ${byCommand}`);
  console.log(
    `delivery after the send returns: one-user events p50 ${percentile(directLatencies, 50).toFixed(1)} / p99 ${percentile(directLatencies, 99).toFixed(1)} ms (${directLatencies.length}); ` +
      `organization-wide event to all ${count}: p50 ${percentile(wideLatencies, 50).toFixed(1)} / p99 ${percentile(wideLatencies, 99).toFixed(1)} ms ` +
      `(${wideLatencies.length} delivered; from the send's start p50 ${percentile(fromStart, 50).toFixed(1)} / p99 ${percentile(fromStart, 99).toFixed(1)} ms, the send itself ${wideSendMs.toFixed(0)} ms)`,
  );
  const saturated = rates.pollsPerSec < 0.8 / config.longPollSeconds() || failures > 0;
  if (rates.pollsPerSec < 0.8 / config.longPollSeconds())
    console.log(
      `saturated: ${rates.pollsPerSec.toFixed(3)} polls/s per client where an idle client makes ${(1 / config.longPollSeconds()).toFixed(3)}: DynamoDB Local (or this machine) did not keep up, so the rates and latencies are starved, not the design's`,
    );
  if (failures > 0) console.log(`${failures} polls failed (DynamoDB Local overloaded: the figures are not the design's)`);
  return { rates, saturated, count };
};

export const benchConnected = async (): Promise<void> => {
  const deployed = deployedSettings();
  const shards = Number(process.env.BENCH_CONNECTED_SHARDS ?? deployed.shards);
  process.env.EVENTS_REALM_SHARDS = String(shards);
  // The handler's request log lines would flood this output; the cost model prices them (LOG_BYTES_PER_LOGGED_POLL).
  process.env.REQUEST_LOG = 'off';
  // One process shares its connections among its polls, as one managed-instances environment does.
  process.env.DYNAMODB_MAX_SOCKETS ??= '128';
  // DynamoDB Local on a loaded machine answers slowly; DynamoDB itself answers in milliseconds.
  process.env.DYNAMODB_CONNECTION_TIMEOUT_MS ??= '10000';
  process.env.DYNAMODB_REQUEST_TIMEOUT_MS ??= '30000';
  console.log(
    `\n## Connected clients: waiting polls held in one process, one shard head reader per shard (lib/events/watcher.ts)\n` +
      `(check interval ${config.pollMinIntervalMs()}→${config.pollMaxIntervalMs()} ms, long-poll ${config.longPollSeconds()} s; ` +
      `managed instances ${MANAGED_PRICES.instanceType} at $${MANAGED_PRICES.instanceHour}/h + ${MANAGED_PRICES.managementFee * 100}% fee, ` +
      `at least ${MANAGED_PRICES.minInstances}; standard Lambda ${deployed.memoryMb} MB arm64; HTTP API, Lambda requests, DynamoDB on demand, CloudWatch Logs $0.50/GB)`,
  );
  const runs: Awaited<ReturnType<typeof runSize>>[] = [];
  let base = FIRST_USER;
  for (const size of SIZES) {
    runs.push(await runSize(size, shards, base));
    base += size;
  }
  // Priced from the largest run that was not starved (a starved run's rates are DynamoDB Local's).
  const priced = [...runs].reverse().find((r) => !r.saturated) ?? runs[runs.length - 1];
  if (!priced) return;
  const { rates } = priced;
  console.log(
    `\nPriced from the ${priced.count.toLocaleString('en-US')}-poll run${priced.saturated ? ' (saturated: every run was)' : ''}:`,
  );
  for (const clients of [10, 1_000, 10_000]) {
    const alb = connectedCost(rates, clients, shards, deployed.memoryMb, 'alb');
    const c = connectedCost(rates, clients, shards, deployed.memoryMb);
    console.log(
      `connected: ${clients.toLocaleString('en-US')} clients; ${money(alb.managedTotal)} per connected client-month on managed instances ` +
        `behind CloudFront and the load balancer (--param eventsEdge=cloudfront, ${ALB_POLL_SECONDS} s polls; ${money(alb.standardTotal)} on standard Lambda); ` +
        `behind the HTTP API (${config.longPollSeconds()} s polls) ${money(c.managedTotal)} managed, ${money(c.standardTotal)} standard; ` +
        `${c.readUnitsPerClient.toFixed(3)} read units/s per waiting client; ${c.perEnv} waiting polls per environment`,
    );
    console.log(`  load balancer, managed (${alb.instances} instances): ${items(alb.managed)}`);
    console.log(`  load balancer, standard: ${items(alb.standard)}`);
    console.log(`  HTTP API, managed (${c.instances} instances): ${items(c.managed)}`);
    console.log(`  HTTP API, standard: ${items(c.standard)}`);
  }
  let crossover = 1;
  while (crossover < 1_000_000) {
    const c = connectedCost(rates, crossover, shards, deployed.memoryMb);
    if (c.managedTotal < c.standardTotal) break;
    crossover = Math.ceil(crossover * 1.05);
  }
  console.log(`crossover: standard Lambda is cheaper below about ${crossover.toLocaleString('en-US')} connected clients`);
  let edgeCrossover = 1;
  while (edgeCrossover < 1_000_000) {
    const [http, alb] = (['httpApi', 'alb'] as const).map((e) => connectedCost(rates, edgeCrossover, shards, deployed.memoryMb, e));
    if (alb.managedTotal < http.managedTotal) break;
    edgeCrossover = Math.ceil(edgeCrossover * 1.05);
  }
  console.log(
    `edge crossover: CloudFront and an ALB are cheaper than the HTTP API from about ${edgeCrossover.toLocaleString('en-US')} connected clients (managed instances)`,
  );
};
