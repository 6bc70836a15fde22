// What a waiting poll reads: one item per check (its organization stream shard's head), its own
// user stream only when its owner's sub-bell on that head rang, nothing at the start of a poll
// that the process's last reading shows idle, and never an event lost when a producer died before
// ringing.
import { fetchEvents, registerQueue, rereadDue, USER_REREAD_EVERY } from '../../../lib/events/queues';
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import type { User } from '../../../lib/models/user';
import { advanceClock, nowMs, resetClock } from '../../../lib/clock';
import { config } from '../../../lib/config';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { PLAIN_QUEUE } from '../../helpers/events';
import { watchDynamoCalls } from '../../helpers/dynamo-calls';

const REALM = 2;
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
let nextUser = 800_000;

/** A fresh user of the organization with a queue (the engine needs only the ids), with a sub-bell unlike `unlike`'s if given. */
const openQueue = async (unlike?: string) => {
  nextUser += 1;
  while (unlike !== undefined && streams.subBellOf(eventKeys.userStream(nextUser)) === streams.subBellOf(unlike)) nextUser += 1;
  const user = { id: nextUser, realmId: REALM } as User;
  const queue = await registerQueue(user, { ...PLAIN_QUEUE, applyMarkdown: true });
  const shard = eventKeys.realmStream(REALM, 0);
  return { user, queue, shard, userStream: eventKeys.userStream(user.id) };
};

/** Moves the service clock out of the long-poll periods in which the queue re-reads its user stream whatever its sub-bell says. */
const avoidReread = (queueId: string): void => {
  while (rereadDue(queueId)) advanceClock(config.longPollSeconds() * 1000);
};

/** What each request of `run` read: `head <stream>` or `events <stream>` (the real client, observed). */
const headReads = async <T>(run: (reads: string[]) => Promise<T>): Promise<{ result: T; reads: string[] }> => {
  const reads: string[] = [];
  const restore = watchDynamoCalls((command) => {
    if (command instanceof BatchGetCommand) {
      const keys = Object.values(command.input.RequestItems ?? {}).flatMap((t) => t.Keys ?? []);
      const heads = keys.filter((k) => k.sk === 'HEAD').map((k) => `head ${String(k.pk)}`);
      if (heads.length > 0) reads.push(heads.join(', '));
    }
    if (command instanceof QueryCommand && String(command.input.ExpressionAttributeValues?.[':pk']).startsWith('STREAM#')) {
      reads.push(`events ${String(command.input.ExpressionAttributeValues?.[':pk'])}`);
    }
  });
  try {
    return { result: await run(reads), reads };
  } finally {
    restore();
  }
};

describe('a waiting poll', () => {
  afterEach(() => {
    delete process.env.EVENTS_LONGPOLL_SECONDS;
    resetClock();
  });

  it('reads only its organization shard head on every check after the first while nothing is sent', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '2';
    const { user, queue, shard, userStream } = await openQueue();
    const { result, reads } = await headReads(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    expect(result).toEqual([{ type: 'heartbeat', id: -1 }]);
    // The poll's first read of both streams; every check reads one item (the queue knows its
    // sub-bell's rings from its registration).
    expect([...reads.slice(0, 2)].sort()).toEqual([`events ${shard}`, `events ${userStream}`]);
    expect(reads.length).toBeGreaterThan(6);
    expect(reads.slice(2)).toEqual(reads.slice(2).map(() => `head ${shard}`));
  });

  it('starts its next poll with no read at all when the last reading shows nothing new for it', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue, shard } = await openQueue();
    const first = await fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false });
    expect(first).toEqual([{ type: 'heartbeat', id: -1 }]);
    // Outside its forced re-reads (USER_REREAD_EVERY).
    avoidReread(queue.queueId);
    const { result, reads } = await headReads(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    expect(result).toEqual([{ type: 'heartbeat', id: -1 }]);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads).toEqual(reads.map(() => `head ${shard}`));
  });

  it("is woken by an event to its user's stream through its sub-bell, and reads its user stream only then", async () => {
    const { user, queue, shard, userStream } = await openQueue();
    const { result, reads } = await headReads(async (soFar) => {
      const pending = fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false });
      await new Promise((resolve) => setTimeout(resolve, 700));
      const shardHead = (await streams.getHeads([shard], { consistent: true })).get(shard)!;
      const readsBefore = soFar.filter((r) => r.includes(userStream)).length;
      const sentAt = nowMs();
      await sendEvent(REALM, tagged('for-you'), { users: [user.id] });
      const events = await pending;
      return { events, shardHead, readsBefore, waitedMs: nowMs() - sentAt };
    });
    expect(result.events).toEqual([{ ...tagged('for-you'), id: 0 }]);
    // Woken by the check after the ring, not by the 20 s bound.
    expect(result.waitedMs).toBeLessThan(5000);
    // Its first read, when no reading of the process preceded it, then one after the ring.
    expect(result.readsBefore).toBeLessThanOrEqual(1);
    expect(reads.filter((r) => r.includes(userStream))).toHaveLength(result.readsBefore + 1);
    const after = (await streams.getHeads([shard], { consistent: true })).get(shard)!;
    expect(after.bell).toBe(result.shardHead.bell + 1);
    expect(streams.ringsFor(after, userStream)).toBe(streams.ringsFor(result.shardHead, userStream) + 1);
  });

  it("does not read its user stream when another user's event rings another sub-bell of its shard", async () => {
    const waiting = await openQueue();
    const other = await openQueue(waiting.userStream);
    // The waiting poll has read its user stream through the rings so far.
    await fetchEvents(waiting.user, { queueId: waiting.queue.queueId, lastEventId: -1, dontBlock: false, maxWaitMs: 300 });
    avoidReread(waiting.queue.queueId);
    const { result, reads } = await headReads(async () => {
      const pending = fetchEvents(waiting.user, { queueId: waiting.queue.queueId, lastEventId: -1, dontBlock: false, maxWaitMs: 2500 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sendEvent(REALM, tagged('not-yours'), { users: [other.user.id] });
      return pending;
    });
    expect(result).toEqual([{ type: 'heartbeat', id: -1 }]);
    expect(reads.filter((r) => r.includes(waiting.userStream))).toEqual([]);
    expect(reads.filter((r) => r.includes(other.userStream))).toEqual([]);
  });

  it('still delivers an event whose producer died before ringing, at a later poll that re-reads its user stream', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    const { user, queue, userStream } = await openQueue();
    let last = -1;
    const firstEvents = await fetchEvents(user, { queueId: queue.queueId, lastEventId: last, dontBlock: false });
    last = firstEvents[firstEvents.length - 1].id;
    // Both writes of an append, without the ring that follows them.
    const seq = await streams.allocate(userStream, nowMs());
    expect(await streams.writeAt(userStream, seq, tagged('unrung'), nowMs(), nowMs())).toBe(true);
    const seen: unknown[] = [];
    // Within USER_REREAD_EVERY long-poll periods, one that a slow machine may stretch by one.
    for (let polls = 0; polls < USER_REREAD_EVERY + 2 && seen.length === 0; polls += 1) {
      const events = await fetchEvents(user, { queueId: queue.queueId, lastEventId: last, dontBlock: false });
      last = events[events.length - 1].id;
      seen.push(...events.filter((e) => e.type !== 'heartbeat'));
    }
    expect(seen).toEqual([expect.objectContaining(tagged('unrung'))]);
  }, 30_000);

  it('does not ring any shard for a user who never registered a queue', async () => {
    const shard = eventKeys.realmStream(REALM, 0);
    const before = (await streams.getHeads([shard], { consistent: true })).get(shard)!.bell;
    await sendEvent(REALM, tagged('nobody listens'), { users: [899_999] });
    expect((await streams.getHeads([shard], { consistent: true })).get(shard)!.bell).toBe(before);
  });
});
