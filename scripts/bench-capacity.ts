// Capacity benchmark (`npm run bench capacity`): at least 1,000 queues of one organization wait at
// once in this process against DynamoDB Local while organization-wide and one-user events are
// sent. It measures delivery latency under that load, the reads of every item (per second, and by
// how many distinct clients), and each waiting client's DynamoDB requests, capacity units and
// polls, and turns them into a cost per always-connected client-month and the organization size at
// which the most-read item reaches 1,000 reads/s. Settings: BENCH_CAPACITY_QUEUES (1000),
// BENCH_CAPACITY_SECONDS (40), BENCH_CAPACITY_EVENT_EVERY_MS (2000). One process, one keep-alive
// client with a socket per queue; a run is bounded to about 3 minutes (registration, 5 s warm-up,
// the window, at most 60 s for the last deliveries, at most one long-poll to stop).
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { config } from '../lib/config';
import { fetchEvents, POLL_INTERVAL_GROWTH, registerQueue } from '../lib/events/queues';
import { sendEvent } from '../lib/events/send';
import type { User } from '../lib/models/user';
import { documentClient } from '../lib/store/client';
import type { QueueState } from '../lib/store/event-queues';
import { BENCH_QUEUE, percentile } from './bench-util';

const REALM = 2;
const FIRST_USER = 700_000;
const QUEUES = Number(process.env.BENCH_CAPACITY_QUEUES ?? 1000);
const WINDOW_MS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 40) * 1000;
const EVENT_EVERY_MS = Number(process.env.BENCH_CAPACITY_EVENT_EVERY_MS ?? 2000);
const LOST_AFTER_MS = 60_000;
/** The most reads per second one item may take (the bound, well under a partition's 3,000 RCU). */
const ITEM_READ_LIMIT = 1000;

/** List prices, us-east-1, arm64 Lambda, on-demand DynamoDB, HTTP API (USD). */
export const PRICES = {
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  httpApiRequest: 1.0 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  dynamoWriteUnit: 0.625 / 1e6,
} as const;
const SECONDS_PER_MONTH = 30 * 86400;

export type ClientRates = { memoryMb: number; pollsPerSec: number; readUnitsPerSec: number; writeUnitsPerSec: number };

/** One always-connected client's month at PRICES, item by item, from its measured rates. */
export const costPerClientMonth = (r: ClientRates) => {
  const items = {
    lambdaDuration: (r.memoryMb / 1024) * SECONDS_PER_MONTH * PRICES.lambdaGbSecond,
    lambdaRequests: r.pollsPerSec * SECONDS_PER_MONTH * PRICES.lambdaRequest,
    apiRequests: r.pollsPerSec * SECONDS_PER_MONTH * PRICES.httpApiRequest,
    dynamoReads: r.readUnitsPerSec * SECONDS_PER_MONTH * PRICES.dynamoReadUnit,
    dynamoWrites: r.writeUnitsPerSec * SECONDS_PER_MONTH * PRICES.dynamoWriteUnit,
  };
  const total = Object.values(items).reduce((a, b) => a + b, 0);
  const line =
    `Lambda ${r.memoryMb} MB × 30 days $${items.lambdaDuration.toFixed(2)}, Lambda requests $${items.lambdaRequests.toFixed(3)}, ` +
    `HTTP API requests $${items.apiRequests.toFixed(3)}, DynamoDB reads $${items.dynamoReads.toFixed(3)}, writes $${items.dynamoWrites.toFixed(3)}; total $${total.toFixed(2)}`;
  return { items, total, line };
};

type Who = { kind: 'consumer' | 'producer'; reader: number };
const who = new AsyncLocalStorage<Who>();

/** The deployed settings: GET /events' memory (routes.json) and the stage's shard count (serverless.yml). */
export const deployedSettings = (): { memoryMb: number; shards: number } => {
  const root = join(__dirname, '..');
  const routes = JSON.parse(readFileSync(join(root, 'functions/events/routes.json'), 'utf8')) as { name: string; memorySize?: number }[];
  const yml = readFileSync(join(root, 'serverless.yml'), 'utf8');
  const providerMemory = Number(/^ {2}memorySize: (\d+)/m.exec(yml)?.[1]);
  const shards = Number(/eventsRealmShards: (\d+)/.exec(yml)?.[1]);
  if (!Number.isFinite(shards) || !Number.isFinite(providerMemory))
    throw new Error('serverless.yml: memorySize or eventsRealmShards not found');
  return { memoryMb: routes.find((r) => r.name === 'eventsGet')?.memorySize ?? providerMemory, shards };
};

type ItemReads = { buckets: Map<number, number>; readers: Set<number>; total: number };

export const benchCapacity = async (): Promise<void> => {
  const { memoryMb, shards } = deployedSettings();
  process.env.EVENTS_REALM_SHARDS = String(shards);
  // Each waiting client is its own Lambda on AWS; here they share one process and its connections.
  process.env.DYNAMODB_MAX_SOCKETS = String(Math.max(50, QUEUES));
  console.log(
    `\n## Capacity: ${QUEUES} waiting queues of one organization in one process (${shards} stream shards, GET /events at ${memoryMb} MB)\n`,
  );

  // Per-item reads and per-kind capacity, observed on the real client.
  const items = new Map<string, ItemReads>();
  const units = { consumer: { read: 0, write: 0, requests: 0 }, producer: { read: 0, write: 0, requests: 0 } };
  let counting = false;
  const commands = new Set<string>();
  const countRead = (key: string, reader: number | undefined) => {
    if (!counting) return;
    const entry = items.get(key) ?? { buckets: new Map(), readers: new Set(), total: 0 };
    items.set(key, entry);
    const second = Math.floor(performance.now() / 1000);
    entry.buckets.set(second, (entry.buckets.get(second) ?? 0) + 1);
    entry.total += 1;
    if (reader !== undefined) entry.readers.add(reader);
  };
  const client = documentClient();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      const result = await next(args);
      const output = result.output as Record<string, any>;
      const current = who.getStore();
      const command = String(context.commandName);
      commands.add(command);
      if (counting && current) {
        const tally = units[current.kind];
        tally.requests += 1;
        for (const c of [output.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number }[]) {
          if (/Put|Update|Delete|Write/.test(command)) tally.write += c.CapacityUnits ?? 0;
          else tally.read += c.CapacityUnits ?? 0;
        }
      }
      const reader = current?.kind === 'consumer' ? current.reader : undefined;
      // Keys may reach this step marshalled ({S: "..."}) or not.
      const text = (v: unknown) => String(v && typeof v === 'object' && 'S' in v ? (v as { S: string }).S : v);
      const keyOf = (k: Record<string, unknown>) => `${text(k.pk)}|${text(k.sk)}`;
      if (/^GetItem|^GetCommand/.test(command)) countRead(keyOf(input.Key), reader);
      if (/^BatchGet/.test(command)) {
        for (const table of Object.values(input.RequestItems) as { Keys: Record<string, unknown>[] }[])
          for (const key of table.Keys) countRead(keyOf(key), reader);
      }
      if (/^Query/.test(command)) for (const item of output.Items ?? []) countRead(keyOf(item), reader);
      return result;
    },
    { step: 'initialize', name: 'benchItemReads' },
  );

  try {
    const sentAt = new Map<string, number>();
    const sentDoneAt = new Map<string, number>();
    const latencies: number[] = [];
    // From the send's return, as the events bench and the targets measure delivery.
    const afterSend: number[] = [];
    const sendDurations: number[] = [];
    const received = new Map<number, Map<string, number>>();
    let polls = 0;
    let stop = false;
    const users = Array.from({ length: QUEUES }, (_, i) => ({ id: FIRST_USER + i, realmId: REALM }) as User);
    const queues: QueueState[] = [];
    for (let i = 0; i < users.length; i += 50) {
      queues.push(...(await Promise.all(users.slice(i, i + 50).map((user) => registerQueue(user, BENCH_QUEUE)))));
    }
    const consumers = users.map((user, i) =>
      who.run({ kind: 'consumer', reader: user.id }, async () => {
        const seen = new Map<string, number>();
        received.set(user.id, seen);
        let last = -1;
        // Spread the clients' first checks, as clients connecting over time would be.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000));
        while (!stop) {
          const events = await fetchEvents(user, { queueId: queues[i].queueId, lastEventId: last, dontBlock: false });
          const now = performance.now();
          if (counting) polls += 1;
          for (const e of events) {
            if (e.type !== 'alert_words') continue;
            const tag = e.alert_words[0];
            seen.set(tag, (seen.get(tag) ?? 0) + 1);
            if (sentAt.has(tag) && counting) latencies.push(now - sentAt.get(tag)!);
            // A delivery seen before the send returned (other shards still being written) counts as 0.
            if (sentAt.has(tag) && counting) afterSend.push(Math.max(0, now - (sentDoneAt.get(tag) ?? now)));
          }
          if (events.length > 0) last = events[events.length - 1].id;
        }
      }),
    );

    // Warm-up: every client waiting, then measure a window with events arriving at random points of the waits.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    counting = true;
    const started = performance.now();
    const realmTags: string[] = [];
    const direct: { tag: string; userId: number }[] = [];
    let n = 0;
    await who.run({ kind: 'producer', reader: 0 }, async () => {
      while (performance.now() - started < WINDOW_MS) {
        await new Promise((resolve) => setTimeout(resolve, EVENT_EVERY_MS * (0.5 + Math.random())));
        const tag = `cap-${n++}`;
        sentAt.set(tag, performance.now());
        if (n % 2 === 0) {
          realmTags.push(tag);
          await sendEvent(REALM, { type: 'alert_words', alert_words: [tag] }, 'realm');
        } else {
          const userId = users[Math.floor(Math.random() * users.length)].id;
          direct.push({ tag, userId });
          await sendEvent(REALM, { type: 'alert_words', alert_words: [tag] }, { users: [userId] });
        }
        sentDoneAt.set(tag, performance.now());
        sendDurations.push(sentDoneAt.get(tag)! - sentAt.get(tag)!);
      }
    });
    const seconds = (performance.now() - started) / 1000;
    counting = false;
    // Every event reaches every queue it was for, exactly once; a lost one fails the run.
    const complete = () =>
      users.every((u) => realmTags.every((t) => received.get(u.id)!.has(t))) &&
      direct.every(({ tag, userId }) => received.get(userId)!.has(tag));
    const deadline = performance.now() + LOST_AFTER_MS;
    while (!complete()) {
      if (performance.now() > deadline) throw new Error('capacity: an event was never delivered');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await who.run({ kind: 'producer', reader: 0 }, () => sendEvent(REALM, { type: 'alert_words', alert_words: ['stop'] }, 'realm'));
    await Promise.all(consumers);
    for (const [userId, seen] of received) {
      for (const [tag, count] of seen) if (count !== 1) throw new Error(`capacity: ${tag} reached user ${userId} ${count} times`);
    }

    // Figures.
    const perItem = [...items.entries()].map(([key, r]) => ({
      key,
      peak: Math.max(...r.buckets.values()),
      avg: r.total / seconds,
      readers: r.readers.size,
    }));
    const hottest = perItem.reduce((a, b) => (b.peak > a.peak ? b : a));
    const shared = perItem.filter((i) => i.key.startsWith('STREAM#R') && i.readers > 0);
    const perClientPeak = Math.max(...shared.map((i) => i.peak / i.readers));
    const capacity = Math.floor((ITEM_READ_LIMIT * shards) / perClientPeak);
    const perClient = (x: number) => x / QUEUES / seconds;
    const readsPerSec = perClient(units.consumer.read);
    const writesPerSec = perClient(units.consumer.write);
    const pollsPerSec = perClient(polls);
    const cost = costPerClientMonth({ memoryMb, pollsPerSec, readUnitsPerSec: readsPerSec, writeUnitsPerSec: writesPerSec });
    const total = cost.total;
    const deliveries = latencies.length;
    if (process.env.BENCH_VERBOSE) console.log(`commands seen: ${[...commands].join(', ')}`);
    console.log(
      `DynamoDB requests in the window: ${units.consumer.requests} by the clients (${(units.consumer.requests / seconds).toFixed(0)}/s), ${units.producer.requests} by the producer`,
    );
    console.log(
      `window: ${seconds.toFixed(1)} s, ${realmTags.length} organization-wide and ${direct.length} one-user events, ${deliveries} deliveries, each exactly once`,
    );
    console.log(
      `delivery latency under load (send starts → long-poller has it): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `delivery latency under load (send returns → long-poller has it): p50 ${percentile(afterSend, 50).toFixed(1)} ms, p99 ${percentile(afterSend, 99).toFixed(1)} ms; ` +
        `the sends themselves took p50 ${percentile(sendDurations, 50).toFixed(1)} ms, p99 ${percentile(sendDurations, 99).toFixed(1)} ms (an organization-wide send writes ${shards} shards)`,
    );
    console.log(
      `most-read item: ${hottest.key}, peak ${hottest.peak} reads/s (mean ${hottest.avg.toFixed(1)}/s) by ${hottest.readers} clients; ${perItem.length} items read in all, ` +
        `${shared.length} of them shared by clients (organization stream shards and their events)`,
    );
    console.log(
      `per waiting client: ${pollsPerSec.toFixed(4)} polls/s, ${readsPerSec.toFixed(3)} read units/s, ${writesPerSec.toFixed(3)} write units/s, peak ${perClientPeak.toFixed(2)} reads/s of one shared item`,
    );
    console.log(
      `producer side: ${units.producer.requests} requests, ${units.producer.write.toFixed(0)} write units for ${realmTags.length + direct.length} sends ` +
        `(an organization-wide send writes each of the ${shards} shards; not counted per client)`,
    );
    console.log(`per client-month at list prices: ${cost.line}`);
    console.log(
      `(check interval ${config.pollMinIntervalMs()}→${config.pollMaxIntervalMs()} ms, long-poll ${config.longPollSeconds()} s, one event every ~${EVENT_EVERY_MS} ms)`,
    );
    // The schedule a waiting client follows when nothing is slow: checks in one idle long-poll.
    let checks = 0;
    for (
      let t = 0, i = config.pollMinIntervalMs();
      t + i < config.longPollSeconds() * 1000;
      t += i, i = Math.min(config.pollMaxIntervalMs(), Math.ceil(i * POLL_INTERVAL_GROWTH))
    )
      checks += 1;
    console.log(
      `design schedule: ${checks} head checks (1 item, half a read unit each) in an idle ${config.longPollSeconds()} s wait, ${(checks / config.longPollSeconds()).toFixed(2)} per second`,
    );
    const expectedChecks = (QUEUES * checks) / config.longPollSeconds();
    // Starved clients (fewer checks than their schedule) or late deliveries: the figures are not the design's.
    const saturated = percentile(afterSend, 99) > 1000 || units.consumer.requests / seconds < 0.8 * expectedChecks;
    if (saturated) {
      console.log(
        `WARNING: DynamoDB Local was saturated (clients made ${(units.consumer.requests / seconds).toFixed(0)} requests/s where their schedule asks for at least ${expectedChecks.toFixed(0)}/s; ` +
          'or delivery p99 after the send above 1 s): the per-client rates, the cost and the capacity below are understated and overstated. Run it on an idle machine.',
      );
      process.exitCode = 1;
    }
    console.log(
      `capacity: ${capacity} waiting clients per organization with no item above 1,000 reads/s; $${total.toFixed(2)} per connected client-month`,
    );
  } finally {
    client.middlewareStack.remove('benchItemReads');
    delete process.env.EVENTS_REALM_SHARDS;
    delete process.env.DYNAMODB_MAX_SOCKETS;
  }
};
