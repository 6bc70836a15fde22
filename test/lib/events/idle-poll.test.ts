// An idle poll writes nothing (docs/data-model.md, "Heartbeats" and "Leases"): its heartbeat
// repeats the last id the client acknowledged, an acknowledgement is written only when it
// acknowledges events the queue held, and the lease is refreshed only when leaseRefreshMs has
// passed; a queue not polled for its timeout still expires, to the millisecond of the frozen clock.
import { BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { advanceClock, freezeClock, nowMs, resetClock } from '../../../lib/clock';
import { BadEventQueueIdError } from '../../../lib/errors';
import { fetchEvents, leaseRefreshMs, MAX_LEASE_REFRESH_MS, registerQueue } from '../../../lib/events/queues';
import { sendEvent } from '../../../lib/events/send';
import type { WaitStrategy } from '../../../lib/events/wait';
import type { AlertWordsEvent } from '../../../lib/models/event';
import type { User } from '../../../lib/models/user';
import { PLAIN_QUEUE } from '../../helpers/events';
import { watchDynamoCalls } from '../../helpers/dynamo-calls';

const REALM = 2;
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
let nextUser = 830_000;

const openQueue = async (timeoutSecs = PLAIN_QUEUE.timeoutSecs) => {
  const user = { id: (nextUser += 1), realmId: REALM } as User;
  const queue = await registerQueue(user, { ...PLAIN_QUEUE, timeoutSecs });
  return { user, queue };
};

/** The DynamoDB writes `run` sends. */
const writesOf = async <T>(run: () => Promise<T>): Promise<{ result: T; writes: number }> => {
  let writes = 0;
  const restore = watchDynamoCalls((command) => {
    const isWrite = [PutCommand, UpdateCommand, DeleteCommand, BatchWriteCommand, TransactWriteCommand].some((c) => command instanceof c);
    if (isWrite) writes += 1;
  });
  try {
    return { result: await run(), writes };
  } finally {
    restore();
  }
};

/** A wait that reaches its bound at once: the long-poll's end, without time passing (the clock may be frozen). */
const boundReached: WaitStrategy = () => Promise.resolve('timeout');

describe('an idle long-poll', () => {
  afterEach(() => {
    delete process.env.EVENTS_LONGPOLL_SECONDS;
    resetClock();
  });

  it('writes nothing to DynamoDB, and its heartbeat repeats the last acknowledged id', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue } = await openQueue();
    const first = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    expect(first).toEqual({ result: [{ type: 'heartbeat', id: -1 }], writes: 0 });
    const second = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    expect(second).toEqual({ result: [{ type: 'heartbeat', id: -1 }], writes: 0 });
  });

  it('writes the acknowledgement of delivered events once, then nothing while idle', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue } = await openQueue();
    await sendEvent(REALM, tagged('one'), { users: [user.id] });
    expect(await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false })).toEqual([{ ...tagged('one'), id: 0 }]);
    const acking = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: 0, dontBlock: false }));
    expect(acking).toEqual({ result: [{ type: 'heartbeat', id: 0 }], writes: 1 });
    // Written: acknowledging an older id is refused, as upstream does.
    await expect(fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: true })).rejects.toThrow(
      'An event newer than 0 has already been pruned!',
    );
    const idle = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: 0, dontBlock: false }));
    expect(idle).toEqual({ result: [{ type: 'heartbeat', id: 0 }], writes: 0 });
  });

  it('gives the next event an id above every heartbeat the client saw', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue } = await openQueue();
    const seen: number[] = [];
    let last = -1;
    for (const tag of ['a', 'b']) {
      const beat = await fetchEvents(user, { queueId: queue.queueId, lastEventId: last, dontBlock: false });
      expect(beat).toEqual([{ type: 'heartbeat', id: last }]);
      await sendEvent(REALM, tagged(tag), { users: [user.id] });
      const events = await fetchEvents(user, { queueId: queue.queueId, lastEventId: last, dontBlock: false });
      seen.push(...events.map((e) => e.id));
      last = events[events.length - 1].id;
    }
    expect(seen).toEqual([0, 1]);
  });

  it('keeps an event taken by a concurrent poll of the queue for the next poll after a heartbeat', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue } = await openQueue();
    // A browser aborts its poll and starts another: the first still runs and takes the event.
    const heartbeat = await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }, boundReached);
    await sendEvent(REALM, tagged('raced'), { users: [user.id] });
    expect(await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: true })).toEqual([{ ...tagged('raced'), id: 0 }]);
    expect(heartbeat).toEqual([{ type: 'heartbeat', id: -1 }]);
    expect(await fetchEvents(user, { queueId: queue.queueId, lastEventId: heartbeat[0].id, dontBlock: true })).toEqual([
      { ...tagged('raced'), id: 0 },
    ]);
  });
});

// Frozen at the present: DynamoDB Local deletes items whose TTL attribute has passed.
describe("a queue's lease", () => {
  afterEach(() => {
    resetClock();
  });

  it('is refreshed at most every few minutes: a poll every 20 s for 30 minutes writes about every five', async () => {
    freezeClock(Date.now());
    const { user, queue } = await openQueue();
    expect(leaseRefreshMs(queue)).toBe(MAX_LEASE_REFRESH_MS);
    let writes = 0;
    for (let t = 0; t < 30 * 60_000; t += 20_000) {
      advanceClock(20_000);
      const poll = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }, boundReached));
      expect(poll.result).toEqual([{ type: 'heartbeat', id: -1 }]);
      writes += poll.writes;
    }
    expect(writes).toBe(6);
  });

  it('lets a queue not polled for its timeout expire, and one polled without pause live', async () => {
    freezeClock(Date.now());
    const { user, queue } = await openQueue(60);
    // A short timeout shortens the refresh: a client polling without pause (20 s polls) keeps it.
    expect(leaseRefreshMs(queue)).toBe(30_000);
    for (let i = 0; i < 30; i += 1) {
      advanceClock(20_000);
      await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }, boundReached);
    }
    const lastPollMs = nowMs();
    advanceClock(59_999);
    await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: true });
    // A dont_block poll does not refresh the lease: 60 s after the last long-poll the queue is gone.
    advanceClock(lastPollMs + 60_000 - nowMs());
    await expect(fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }, boundReached)).rejects.toThrow(
      BadEventQueueIdError,
    );
  });

  it('expires a queue abandoned right after a poll that wrote nothing within its timeout of that poll', async () => {
    freezeClock(Date.now());
    const { user, queue } = await openQueue(600);
    advanceClock(MAX_LEASE_REFRESH_MS - 1);
    const quiet = await writesOf(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }, boundReached));
    expect(quiet.writes).toBe(0);
    const abandonedMs = nowMs();
    advanceClock(600_000);
    expect(nowMs() - abandonedMs).toBe(600_000);
    await expect(fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: true })).rejects.toThrow(BadEventQueueIdError);
  });
});
