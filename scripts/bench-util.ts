// Measuring helpers shared by the benchmark sections.
import { fetchEvents, registerQueue, type ApiEventWithId } from '../lib/events/queues';
import { newSubscription, type Channel } from '../lib/models/channel';
import type { ApiEvent, QueueDescriptor } from '../lib/models/event';
import type { User } from '../lib/models/user';
import type { SendMessageRequest } from '../lib/actions/messages/send';
import { dbMetrics } from '../lib/store/client';
import { batchPut, type Item } from '../lib/store/common';

export type Cost = { requests: number; readUnits: number; writeUnits: number; ms: number };

/** Runs `fn` once and returns the DynamoDB requests and capacity units it used, and its duration. */
export const costOf = async (fn: () => Promise<unknown>): Promise<Cost> => {
  dbMetrics.reset();
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  const { requests, readUnits, writeUnits } = dbMetrics.snapshot();
  return { requests, readUnits, writeUnits, ms };
};

/** Runs `fn` `n` times; latency percentiles and the mean DynamoDB cost per call. */
export const measure = async (n: number, fn: (i: number) => Promise<unknown>): Promise<Cost & { p50: number; p99: number }> => {
  const times: number[] = [];
  dbMetrics.reset();
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  const { requests, readUnits, writeUnits } = dbMetrics.snapshot();
  return {
    requests: requests / n,
    readUnits: readUnits / n,
    writeUnits: writeUnits / n,
    ms: times.reduce((a, b) => a + b, 0) / n,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
};

export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** An event of a real type, tagged so the benchmark can recognise it. */
export const buildBenchEvent = (tag: string): ApiEvent => ({ type: 'alert_words', alert_words: [tag] });

export const printTable = (rows: [string, Cost & { p50?: number; p99?: number }][]): void => {
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`${'operation'.padEnd(width)} | requests | read CU | write CU | time`);
  for (const [label, c] of rows) {
    const time = c.p50 !== undefined ? `p50 ${c.p50.toFixed(1)} ms, p99 ${c.p99!.toFixed(1)} ms` : `${c.ms.toFixed(1)} ms`;
    console.log(
      `${label.padEnd(width)} | ${c.requests.toFixed(1).padStart(8)} | ${c.readUnits.toFixed(1).padStart(7)} | ${c.writeUnits.toFixed(1).padStart(8)} | ${time}`,
    );
  }
};

/**
 * A sentence computed from measured figures: how one operation's DynamoDB requests and read units
 * per call change from the smallest to the largest size measured ("flat" only when they did not).
 */
export const scalingStatement = (operation: string, bySize: { size: number; cost: Cost }[]): string => {
  if (bySize.length < 2) return `${operation}: measured at one size only`;
  const sorted = [...bySize].sort((a, b) => a.size - b.size);
  const [first, last] = [sorted[0], sorted[sorted.length - 1]];
  const sizes = `from ${first.size.toLocaleString('en-US')} to ${last.size.toLocaleString('en-US')}`;
  const describe = (what: string, a: number, b: number) =>
    Math.abs(b - a) <= Math.max(0.05, 0.02 * a)
      ? `${what} flat at ${a.toFixed(1)}`
      : `${what} ${a.toFixed(1)} → ${b.toFixed(1)} (×${(b / Math.max(a, 0.01)).toFixed(1)})`;
  return `${operation}, ${sizes}: ${describe('requests/call', first.cost.requests, last.cost.requests)}; ${describe('read CU/call', first.cost.readUnits, last.cost.readUnits)}`;
};

/** Writes items straight to the main table with several batch writers at once (a benchmark's generated data). */
export const writeAllItems = async (items: Item[], writers = 8): Promise<void> => {
  const slice = Math.ceil(items.length / writers);
  await Promise.all(Array.from({ length: writers }, (_, w) => batchPut('main', items.slice(w * slice, (w + 1) * slice))));
};

/**
 * A generated public channel of organization `realmId` with the development data's channel
 * defaults (the role groups of 'zulip': 2 administrators, 6 everyone, 8 nobody), one subscriber.
 */
export const benchChannel = (realmId: number, id: number, name: string): Channel => ({
  id,
  realmId,
  name,
  description: `Generated channel ${name}`,
  dateCreated: 1700010000,
  creatorId: null,
  inviteOnly: false,
  isWebPublic: false,
  historyPublicToSubscribers: true,
  messageRetentionDays: null,
  topicsPolicy: 'inherit',
  folderId: null,
  isArchived: false,
  streamPostPolicy: 1,
  groupSettings: {
    can_add_subscribers_group: { direct_members: [], direct_subgroups: [] },
    can_remove_subscribers_group: 2,
    can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
    can_delete_any_message_group: { direct_members: [], direct_subgroups: [] },
    can_delete_own_message_group: 6,
    can_move_messages_out_of_channel_group: 8,
    can_move_messages_within_channel_group: 8,
    can_send_message_group: 6,
    can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    can_resolve_topics_group: 8,
    can_create_topic_group: 6,
  },
  subscriberCount: 1,
  firstMessageId: null,
  lastMessageAt: null,
});

/** An active subscription row with upstream's defaults, for the benchmarks' generated members. */
export const benchSubscription = (realmId: number, userId: number, channelId: number) =>
  newSubscription({ userId, channelId, realmId }, '#c2c2c2');

/** A benchmark queue's settings: every event type, no narrow, upstream's defaults (registerQueue's argument). */
export const BENCH_QUEUE: Omit<QueueDescriptor, 'queueId' | 'realmId' | 'userId'> = {
  eventTypes: null,
  capabilities: {},
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: true,
  clientGravatar: true,
  slimPresence: false,
  timeoutSecs: 600,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An event not delivered within this long is lost: the benchmark fails instead of waiting forever. */
const LOST_AFTER_MS = 30_000;

/**
 * Delivery latency to a waiting long-poller: a consumer long-polls a queue of `user`'s registered
 * with `queue` and notes when each event that `recognise` names a key for arrives; the producer
 * sends `count` times (`send(i)` resolves, once the send has returned, to the key its event will
 * carry), each after a random pause drawn from [minPauseMs, maxPauseMs] since the previous one
 * arrived, so that it lands at that point of the poller's wait (its check interval grows while it
 * waits). Measured from the send returning to the poller holding the event; p50, p99 and max in
 * ms. `wake` sends one more event so that the poller returns at the end. An event not delivered
 * within LOST_AFTER_MS fails the benchmark ("<noun> <key> was never delivered").
 */
export const deliveryLatency = async <Key>(opts: {
  user: User;
  queue: Omit<QueueDescriptor, 'queueId' | 'realmId' | 'userId'>;
  count: number;
  minPauseMs: number;
  maxPauseMs: number;
  send: (i: number) => Promise<Key>;
  recognise: (event: ApiEventWithId) => Key | undefined;
  wake: () => Promise<unknown>;
  noun: string;
  /** How often the producer checks whether the poller has the event. */
  checkEveryMs: number;
}): Promise<{ p50: number; p99: number; max: number }> => {
  const { user } = opts;
  const queue = await registerQueue(user, opts.queue);
  const receivedAt = new Map<Key, number>();
  let last = -1;
  let stop = false;
  const consumer = (async () => {
    while (!stop) {
      const events = await fetchEvents(user, { queueId: queue.queueId, lastEventId: last, dontBlock: false });
      const now = performance.now();
      for (const e of events) {
        const key = opts.recognise(e);
        if (key !== undefined) receivedAt.set(key, now);
      }
      if (events.length > 0) last = events[events.length - 1].id;
    }
  })();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < opts.count; i += 1) {
      await sleep(opts.minPauseMs + Math.random() * (opts.maxPauseMs - opts.minPauseMs));
      const key = await opts.send(i);
      const sentAt = performance.now();
      const deadline = sentAt + LOST_AFTER_MS;
      while (!receivedAt.has(key)) {
        if (performance.now() > deadline) throw new Error(`${opts.noun} ${key} was never delivered`);
        await sleep(opts.checkEveryMs);
      }
      latencies.push(Math.max(0, receivedAt.get(key)! - sentAt));
    }
  } finally {
    stop = true;
    await opts.wake();
    await consumer;
  }
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };
};

/** A benchmark's channel message, as the send action takes it from POST /messages (client "bench"). */
export const benchChannelSend = (to: string, topic: string, content: string): SendMessageRequest => ({
  type: 'stream',
  to,
  topic,
  content,
  client: 'bench',
  readBySender: undefined,
  queueId: undefined,
  localId: undefined,
  forged: undefined,
  sender: undefined,
});
