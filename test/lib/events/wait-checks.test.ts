// What a waiting poll reads: one item per check (its organization stream shard's head), its own
// user stream's head only when that shard's bell rang, and never an event lost when a producer
// died before ringing.
import { fetchEvents, registerQueue } from '../../../lib/events/queues';
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import type { User } from '../../../lib/models/user';
import { nowMs } from '../../../lib/clock';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../lib/store/client';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { PLAIN_QUEUE } from '../../helpers/events';

const REALM = 2;
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
let nextUser = 800_000;

/** A fresh user of the organization with a queue (the engine needs only the ids). */
const openQueue = async () => {
  const user = { id: (nextUser += 1), realmId: REALM } as User;
  const queue = await registerQueue(user, { ...PLAIN_QUEUE, applyMarkdown: true });
  const shard = eventKeys.realmStream(REALM, 0);
  return { user, queue, shard, userStream: eventKeys.userStream(user.id) };
};

/** What each request of `run` read: `head <stream>` or `events <stream>` (the real client, observed). */
const headReads = async <T>(run: () => Promise<T>): Promise<{ result: T; reads: string[] }> => {
  const reads: string[] = [];
  const client = documentClient();
  const original = client.send.bind(client);
  const spy = jest.spyOn(client, 'send').mockImplementation(((command: Parameters<typeof original>[0]) => {
    if (command instanceof BatchGetCommand) {
      const keys = Object.values(command.input.RequestItems ?? {}).flatMap((t) => t.Keys ?? []);
      const heads = keys.filter((k) => k.sk === 'HEAD').map((k) => `head ${String(k.pk)}`);
      if (heads.length > 0) reads.push(heads.join(', '));
    }
    if (command instanceof QueryCommand && String(command.input.ExpressionAttributeValues?.[':pk']).startsWith('STREAM#')) {
      reads.push(`events ${String(command.input.ExpressionAttributeValues?.[':pk'])}`);
    }
    return original(command);
  }) as typeof client.send);
  try {
    return { result: await run(), reads };
  } finally {
    spy.mockRestore();
  }
};

describe('a waiting poll', () => {
  afterEach(() => {
    delete process.env.EVENTS_LONGPOLL_SECONDS;
  });

  it('reads only its organization shard head on every check after the first while nothing is sent', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '2';
    const { user, queue, shard, userStream } = await openQueue();
    const { result, reads } = await headReads(() => fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false }));
    expect(result).toEqual([{ type: 'heartbeat', id: 0 }]);
    // The poll's first read of both streams; the first check also reads the user stream (the bell's
    // starting point); every later check reads one item.
    expect([...reads.slice(0, 2)].sort()).toEqual([`events ${shard}`, `events ${userStream}`]);
    expect(reads.slice(2, 4)).toEqual([`head ${shard}`, `events ${userStream}`]);
    expect(reads.length).toBeGreaterThan(6);
    expect(reads.slice(4)).toEqual(reads.slice(4).map(() => `head ${shard}`));
  });

  it("is woken by an event to its user's stream through the shard's bell, and reads its user stream only then", async () => {
    const { user, queue, shard, userStream } = await openQueue();
    const { result, reads } = await headReads(async () => {
      const pending = fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false });
      await new Promise((resolve) => setTimeout(resolve, 700));
      const shardHead = (await streams.getHeads([shard], { consistent: true })).get(shard)!;
      const sentAt = nowMs();
      await sendEvent(REALM, tagged('for-you'), { users: [user.id] });
      const events = await pending;
      return { events, bellBefore: shardHead.bell, waitedMs: nowMs() - sentAt };
    });
    expect(result.events).toEqual([{ ...tagged('for-you'), id: 0 }]);
    // Woken by the check after the ring, not by the 10 s re-check nor the 20 s bound.
    expect(result.waitedMs).toBeLessThan(5000);
    // The poll's first read, the first check's and the one after the ring.
    expect(reads.filter((r) => r.includes(userStream))).toEqual([`events ${userStream}`, `events ${userStream}`, `events ${userStream}`]);
    expect((await streams.getHeads([shard], { consistent: true })).get(shard)!.bell).toBe(result.bellBefore + 1);
  });

  it('still delivers an event whose producer died before ringing, at the queue re-check', async () => {
    const { user, queue, userStream } = await openQueue();
    const pending = fetchEvents(user, { queueId: queue.queueId, lastEventId: -1, dontBlock: false });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Both writes of an append, without the ring that follows them.
    const seq = await streams.allocate(userStream, nowMs());
    expect(await streams.writeAt(userStream, seq, tagged('unrung'), nowMs(), nowMs())).toBe(true);
    expect(await pending).toEqual([{ ...tagged('unrung'), id: 0 }]);
  }, 30_000);

  it('does not ring any shard for a user who never registered a queue', async () => {
    const shard = eventKeys.realmStream(REALM, 0);
    const before = (await streams.getHeads([shard], { consistent: true })).get(shard)!.bell;
    await sendEvent(REALM, tagged('nobody listens'), { users: [899_999] });
    expect((await streams.getHeads([shard], { consistent: true })).get(shard)!.bell).toBe(before);
  });
});
