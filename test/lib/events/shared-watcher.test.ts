// One watcher per process (lib/events/watcher.ts): many waiting polls of one process share one
// reader per organization stream shard head, each is woken once per change of that head, the
// reader stops when no poll waits, and every poll still receives exactly its events (an idle
// cycle's writes: idle-poll.test.ts).
import { BatchGetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { resetClock } from '../../../lib/clock';
import { fetchEvents, registerQueue } from '../../../lib/events/queues';
import { sendEvent } from '../../../lib/events/send';
import { activeWatchers, BUSY_INTERVAL_MS, BUSY_WATCHERS, watchShard, watcherStats, type HeadReading } from '../../../lib/events/watcher';
import type { AlertWordsEvent } from '../../../lib/models/event';
import type { User } from '../../../lib/models/user';
import { eventKeys } from '../../../lib/store/keys';
import { PLAIN_QUEUE } from '../../helpers/events';
import { watchDynamoCalls } from '../../helpers/dynamo-calls';

const REALM = 2;
const SHARD = eventKeys.realmStream(REALM, 0);
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let nextUser = 810_000;

const openQueue = async () => {
  const user = { id: (nextUser += 1), realmId: REALM } as User;
  const queue = await registerQueue(user, { ...PLAIN_QUEUE, applyMarkdown: true });
  return { user, queue };
};

/** Every request `run` sends, as `head <stream>` for a head read and `write <pk>` for a queue write. */
const observe = async <T>(run: () => Promise<T>): Promise<{ result: T; requests: string[] }> => {
  const requests: string[] = [];
  const restore = watchDynamoCalls((command) => {
    if (command instanceof BatchGetCommand) {
      const keys = Object.values(command.input.RequestItems ?? {}).flatMap((t) => t.Keys ?? []);
      for (const k of keys) if (k.sk === 'HEAD') requests.push(`head ${String(k.pk)}`);
      if (keys.length > 0 && keys.every((k) => k.sk === 'HEAD'))
        requests.push(
          `batch ${keys
            .map((k) => String(k.pk))
            .sort()
            .join(', ')}`,
        );
    }
    if (command instanceof UpdateCommand || command instanceof PutCommand) {
      const pk = command instanceof UpdateCommand ? command.input.Key?.pk : command.input.Item?.pk;
      requests.push(`write ${String(pk)}`);
    }
  });
  try {
    return { result: await run(), requests };
  } finally {
    restore();
  }
};

afterEach(() => {
  delete process.env.EVENTS_LONGPOLL_SECONDS;
  delete process.env.AUTH_CACHE_MS;
  resetClock();
});

describe('the shared watcher', () => {
  it('reads a busy shard head at a fixed interval, however many polls start waiting', async () => {
    const stream = eventKeys.realmStream(REALM, 0);
    const steady = Array.from({ length: BUSY_WATCHERS }, () => watchShard(stream));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = watcherStats.reads;
      const started = Date.now();
      // A poll starting every 20 ms (80 a second per environment of 1,600 clients on 5 shards is 16).
      while (Date.now() - started < 1500) {
        watchShard(stream).close();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const reads = watcherStats.reads - before;
      const expected = (Date.now() - started) / BUSY_INTERVAL_MS;
      // The lone schedule, started again by each, would read every 20–25 ms (about 60 reads).
      expect(reads).toBeGreaterThanOrEqual(Math.floor(expected) - 2);
      expect(reads).toBeLessThanOrEqual(Math.ceil(expected) + 2);
    } finally {
      for (const w of steady) w.close();
    }
  });

  it('reads the heads of all its busy shards together, about one request per tick', async () => {
    const shards = [0, 1, 2].map((i) => eventKeys.realmStream(REALM, i));
    const watches = shards.flatMap((stream) => Array.from({ length: BUSY_WATCHERS }, () => watchShard(stream)));
    try {
      // Past the readers' first reads, which each made on its own schedule.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { requests } = await observe(() => new Promise((resolve) => setTimeout(resolve, 1500)));
      const batches = requests.filter((r) => r.startsWith('batch '));
      const heads = requests.filter((r) => r.startsWith('head ')).length;
      const ticks = 1500 / BUSY_INTERVAL_MS;
      expect(heads).toBeGreaterThanOrEqual(3 * (ticks - 2));
      // Read one by one, it would take a request per head (3 a tick).
      expect(batches.length).toBeLessThanOrEqual(1.5 * ticks);
      expect(batches.filter((b) => b === `batch ${shards.join(', ')}`).length).toBeGreaterThanOrEqual(ticks / 2);
    } finally {
      for (const w of watches) w.close();
    }
  });

  it('reads a shard head once per check for all the waiting polls of the process, and stops when none waits', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '4';
    const queues = await Promise.all(Array.from({ length: 40 }, openQueue));
    const { result, requests } = await observe(async () => {
      const polls = queues.map(({ user, queue }) => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
      let during: string[] = [];
      for (let i = 0; i < 60 && during.length === 0; i += 1) {
        await sleep(50);
        during = activeWatchers();
      }
      return { events: await Promise.all(polls), during };
    });
    expect(result.during).toEqual([SHARD]);
    for (const events of result.events) expect(events).toEqual([{ type: 'heartbeat', id: -1 }]);
    // A lone poll's schedule makes 10 checks in 4 s (25, 40, 64, … then every 900 ms), so 40 polls
    // reading for themselves would make about 400; sharing one reader, they make about one poll's
    // schedule (started again from 25 ms whenever another poll starts waiting).
    const headReads = requests.filter((r) => r === `head ${SHARD}`).length;
    expect(headReads).toBeGreaterThan(2);
    expect(headReads).toBeLessThan(queues.length);
    // The reader stopped with the last poll.
    expect(activeWatchers()).toEqual([]);
    const after = await observe(() => sleep(1000));
    expect(after.requests).toEqual([]);
  });

  it('wakes each watching poll once per change of the head', async () => {
    const watches = Array.from({ length: 25 }, () => watchShard(SHARD));
    try {
      const until = Date.now() + 2500;
      const collect = async (w: (typeof watches)[number]) => {
        const seen: HeadReading[] = [];
        for (;;) {
          const reading = await w.next(until);
          if (!reading) return seen;
          seen.push(reading);
        }
      };
      const collecting = watches.map(collect);
      await sleep(700);
      await sendEvent(REALM, tagged('one change'), 'realm');
      const seen = await Promise.all(collecting);
      for (const readings of seen) {
        // The first reading (the head as the watch found it), then the one after the send.
        expect(readings).toHaveLength(2);
        expect(readings[1].head.seq).toBe(readings[0].head.seq + 1);
        expect(readings.map((r) => r.version)).toEqual(seen[0].map((r) => r.version));
      }
    } finally {
      for (const w of watches) w.close();
    }
    expect(activeWatchers()).toEqual([]);
  });

  it('delivers to every waiting poll exactly its events', async () => {
    const queues = await Promise.all(Array.from({ length: 30 }, openQueue));
    const target = queues[7];
    const polls = queues.map(({ user, queue }) => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    await sleep(600);
    let shardQueries = 0;
    const restore = watchDynamoCalls((command) => {
      if (command instanceof QueryCommand && command.input.ExpressionAttributeValues?.[':pk'] === SHARD) shardQueries += 1;
    });
    let results;
    try {
      await sendEvent(REALM, tagged('everyone'), 'realm');
      results = await Promise.all(polls);
    } finally {
      restore();
    }
    for (const events of results) expect(events).toEqual([{ ...tagged('everyone'), id: 0 }]);
    // The 30 polls woken by the same reading of their shard head read its new events together.
    expect(shardQueries).toBeLessThanOrEqual(3);

    // The next poll of each: only the target gets the one-user event; the others time out.
    process.env.EVENTS_LONGPOLL_SECONDS = '3';
    const next = queues.map(({ user, queue }) => fetchEvents(user, { queueId: queue.queueId, lastEventId: 0, dontBlock: false }));
    await sleep(400);
    const sentAt = Date.now();
    await sendEvent(REALM, tagged('just you'), { users: [target.user.id] });
    const second = await Promise.all(next);
    queues.forEach((q, i) => expect(second[i]).toEqual(q === target ? [{ ...tagged('just you'), id: 1 }] : [{ type: 'heartbeat', id: 0 }]));
    expect(Date.now() - sentAt).toBeLessThan(5000);
    expect(activeWatchers()).toEqual([]);
  });
});
