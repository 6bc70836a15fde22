// With the organization's stream in shards (EVENTS_REALM_SHARDS), an organization-wide event still
// reaches every queue exactly once and in send order, whichever shard the queue reads.
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { handler as getEvents } from '../../../functions/events/get';
import { call, expectError } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const REALM = 2;
const SHARDS = 4;
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });

describe('organization stream shards', () => {
  beforeAll(() => {
    process.env.EVENTS_REALM_SHARDS = String(SHARDS);
  });
  afterAll(() => {
    delete process.env.EVENTS_REALM_SHARDS;
  });

  it('appends an organization-wide event once to each shard', async () => {
    const shardStreams = Array.from({ length: SHARDS }, (_, shard) => eventKeys.realmStream(REALM, shard));
    const before = await streams.getHeads(shardStreams, { consistent: true });
    await sendEvent(REALM, tagged('everyone'), 'realm');
    const after = await streams.getHeads(shardStreams, { consistent: true });
    expect(shardStreams.map((s) => after.get(s)!.seq - before.get(s)!.seq)).toEqual([1, 1, 1, 1]);
  });

  it("delivers every event of concurrent producers exactly once, in each producer's order, to queues on different shards", async () => {
    // Users 10 and 11 read shards 2 and 3 (user id modulo 4); othello reads another.
    const queues = await Promise.all(['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com'].map((email) => openQueue(email)));
    const PRODUCERS = 4;
    const PER_PRODUCER = 10;
    await Promise.all(
      Array.from({ length: PRODUCERS }, async (_, p) => {
        for (let i = 0; i < PER_PRODUCER; i += 1) await sendEvent(REALM, tagged(`${p}:${i}`), 'realm');
      }),
    );
    for (const queue of queues) {
      const tags = (await queue.drain()).map((e) => e.alert_words[0] as string);
      expect([...tags].sort()).toEqual(
        Array.from({ length: PRODUCERS * PER_PRODUCER }, (_, k) => `${Math.floor(k / PER_PRODUCER)}:${k % PER_PRODUCER}`).sort(),
      );
      for (let p = 0; p < PRODUCERS; p += 1) {
        const ns = tags.filter((t) => t.startsWith(`${p}:`)).map((t) => Number(t.split(':')[1]));
        expect(ns).toEqual([...ns].sort((a, b) => a - b));
      }
    }
  });

  it("ends a queue whose shard is no longer its owner's after the shard count changed; an all_public_streams queue goes on", async () => {
    // Hamlet (10) reads shard 2 of 4, and would read shard 1 of 3; shard 0 stays the public copy.
    const hamlet = await openQueue('hamlet@zulip.com');
    const everything = await openQueue('iago@zulip.com', { params: { all_public_streams: true } });
    process.env.EVENTS_REALM_SHARDS = '3';
    try {
      const poll = await call(getEvents, {
        method: 'GET',
        path: '/events',
        as: 'hamlet@zulip.com',
        params: { queue_id: hamlet.queueId, last_event_id: -1, dont_block: true },
      });
      expectError(poll, `Bad event queue ID: ${hamlet.queueId}`, 400, 'BAD_EVENT_QUEUE_ID');
      await sendEvent(REALM, tagged('after'), 'realm');
      expect((await everything.drain()).map((e) => e.alert_words[0])).toEqual(['after']);
    } finally {
      process.env.EVENTS_REALM_SHARDS = String(SHARDS);
    }
  });
});
