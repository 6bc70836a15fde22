// sendEvent's fan-out: each recipient's own payload, every recipient reached, never more than
// FANOUT_CONCURRENCY appends in flight however many recipients a send has, and one shared append
// to the organization's stream when many recipients share a payload.
import { handler as getEvents } from '../../../functions/events/get';
import { mapLimited } from '../../../lib/concurrency';
import { eventForUser } from '../../../lib/events/fanout';
import { eventForQueue } from '../../../lib/events/event-filters';
import {
  FANOUT_CONCURRENCY,
  MAX_SHARED_ITEM_BYTES,
  sendEvent,
  sendEventPerRecipient,
  sendEventToRealmExcept,
} from '../../../lib/events/send';
import type { AlertWordsEvent, MessageEvent } from '../../../lib/models/event';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue, queueDescriptor } from '../../helpers/events';
import { aroundDynamoCalls } from '../../helpers/dynamo-calls';

const REALM = 2;
const RECIPIENTS = 3000;
/**
 * Recipients of the per-recipient send: ten times the bound on appends in flight is enough to see
 * the bound hold, at a fifth of the writes and reads of RECIPIENTS (each append two writes, each
 * check a read: what made this the suite's slowest file).
 */
const OWN_PAYLOADS = 10 * FANOUT_CONCURRENCY;
const IAGO = 'iago@zulip.com';
const IAGO_ID = 11;
const HAMLET = 'hamlet@zulip.com';
const HAMLET_ID = 10;

const words = (userId: number): AlertWordsEvent => ({ type: 'alert_words', alert_words: [`for-${userId}`] });

/** Counts the DynamoDB requests in flight at once while `run` runs (the real client, observed). */
const maxInFlight = async (run: () => Promise<void>): Promise<number> => {
  let inFlight = 0;
  let max = 0;
  const restore = aroundDynamoCalls(async (command, send) => {
    inFlight += 1;
    max = Math.max(max, inFlight);
    try {
      return await send(command);
    } finally {
      inFlight -= 1;
    }
  });
  try {
    await run();
  } finally {
    restore();
  }
  return max;
};

const lastOfStream = async (userId: number) => {
  const stream = eventKeys.userStream(userId);
  const head = (await streams.getHeads([stream], { consistent: true })).get(stream)!;
  return (await streams.readAfter(stream, head.seq - 1, 1))[0]?.event;
};

describe('sendEvent fan-out', () => {
  it(`gives each of ${OWN_PAYLOADS} recipients their own payload, all different, on their own streams with at most ${FANOUT_CONCURRENCY} writes in flight`, async () => {
    const userIds = Array.from({ length: OWN_PAYLOADS }, (_, i) => 100_000 + i);
    const max = await maxInFlight(() =>
      sendEventPerRecipient(
        REALM,
        userIds.map((userId) => ({ userId, event: words(userId) })),
      ),
    );
    expect(max).toBeLessThanOrEqual(FANOUT_CONCURRENCY);
    const received = await mapLimited(userIds, 16, lastOfStream);
    expect(received).toEqual(userIds.map(words));
  }, 120000);

  it(`sends one payload to ${RECIPIENTS} listed users as one append to the organization's stream, and none to theirs`, async () => {
    const userIds = Array.from({ length: RECIPIENTS }, (_, i) => 200_000 + i);
    const event = words(0);
    const realmStream = eventKeys.realmStream(REALM);
    const sample = [userIds[0], userIds[RECIPIENTS / 2], userIds[RECIPIENTS - 1]];
    const before = await streams.getHeads([realmStream, ...sample.map(eventKeys.userStream)], { consistent: true });
    await sendEvent(REALM, event, { users: userIds });
    const after = await streams.getHeads([realmStream, ...sample.map(eventKeys.userStream)], { consistent: true });
    expect([...after.values()].map((h) => h.seq - before.get(h.stream)!.seq)).toEqual([1, 0, 0, 0]);
    const [stored] = await streams.readAfter(realmStream, before.get(realmStream)!.seq, 10);
    expect(sample.map((id) => eventForUser(stored.event!, id))).toEqual([event, event, event]);
    expect(eventForUser(stored.event!, 199_999)).toBeNull();
    expect(eventForUser(stored.event!, 200_000 + RECIPIENTS)).toBeNull();
  });

  it("sends an event to everyone but some users as one append to the organization's stream that names only them", async () => {
    const realmStream = eventKeys.realmStream(REALM);
    const before = await streams.getHeads([realmStream, eventKeys.userStream(IAGO_ID)], { consistent: true });
    await sendEventToRealmExcept(REALM, words(7), [HAMLET_ID]);
    const after = await streams.getHeads([realmStream, eventKeys.userStream(IAGO_ID)], { consistent: true });
    expect([...after.values()].map((h) => h.seq - before.get(h.stream)!.seq)).toEqual([1, 0]);
    const [stored] = await streams.readAfter(realmStream, before.get(realmStream)!.seq, 10);
    expect([IAGO_ID, HAMLET_ID, 123_456].map((id) => eventForUser(stored.event!, id))).toEqual([words(7), null, words(7)]);
  });

  it("delivers each user's own payload through GET /events", async () => {
    const iago = await openQueue(IAGO);
    const hamlet = await openQueue(HAMLET);
    await sendEventPerRecipient(REALM, [
      { userId: IAGO_ID, event: words(IAGO_ID) },
      { userId: HAMLET_ID, event: words(HAMLET_ID) },
    ]);
    expect(await iago.drain()).toEqual([words(IAGO_ID)]);
    expect(await hamlet.drain()).toEqual([words(HAMLET_ID)]);
    // Nothing else, for nobody.
    const body = expectSuccess(
      await call(getEvents, {
        method: 'GET',
        path: '/events',
        as: IAGO,
        params: { queue_id: iago.queueId, last_event_id: 0, dont_block: true },
      }),
    );
    expect(body.events).toEqual([]);
  });

  it(`gives each of ${RECIPIENTS} users of one shared message event exactly its own flags`, async () => {
    const COMBINATIONS = [[], ['read'], ['mentioned'], ['read', 'mentioned'], ['wildcard_mentioned'], ['read', 'starred']];
    const userIds = Array.from({ length: RECIPIENTS }, (_, i) => 300_000 + 3 * i);
    const flagsOf = (userId: number) => COMBINATIONS[(userId * 7919) % COMBINATIONS.length];
    const message = { id: 77, type: 'stream', stream_id: 1, subject: 'crowd', content: 'hi', recipient_id: 1 };
    const realmStream = eventKeys.realmStream(REALM);
    const before = (await streams.getHeads([realmStream], { consistent: true })).get(realmStream)!.seq;
    await sendEventPerRecipient(
      REALM,
      userIds.map((userId) => ({ userId, event: { type: 'message', message, flags: flagsOf(userId) } as MessageEvent })),
    );
    const stored = await streams.readAfter(realmStream, before, 10);
    expect(stored).toHaveLength(1);
    for (const userId of userIds) {
      expect([userId, eventForQueue(queueDescriptor({ userId }), stored[0].event!)]).toEqual([
        userId,
        { type: 'message', message, flags: flagsOf(userId) },
      ]);
    }
    for (const userId of [300_001, 299_999, 300_000 + 3 * RECIPIENTS]) expect(eventForUser(stored[0].event!, userId)).toBeNull();
  }, 60000);

  it('splits an audience too large for one item by user id range, each user finding exactly one version', async () => {
    // 150,000 scattered ids (about 3 bytes each in the item) with two flag groups: more than one item.
    const userIds = Array.from({ length: 150_000 }, (_, i) => 1_000_000 + 67 * i + (i % 5));
    const flagsOf = (userId: number) => (userId % 3 === 0 ? ['mentioned'] : []);
    const message = { id: 78, type: 'stream', stream_id: 1, subject: 'huge', content: 'hi', recipient_id: 1 };
    const others: MessageEvent = { type: 'message', message, flags: [], all_public_streams_copy: true };
    const realmStream = eventKeys.realmStream(REALM);
    const before = (await streams.getHeads([realmStream], { consistent: true })).get(realmStream)!.seq;
    await sendEventPerRecipient(
      REALM,
      userIds.map((userId) => ({ userId, event: { type: 'message', message, flags: flagsOf(userId) } as MessageEvent })),
      { others },
    );
    const items = (await streams.readAfter(realmStream, before, 100)).map((e) => e.event!);
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThanOrEqual(MAX_SHARED_ITEM_BYTES);
    const versionsOf = (userId: number) => items.map((item) => eventForUser(item, userId)).filter((v) => v !== null);
    for (let i = 0; i < userIds.length; i += 499) {
      const userId = userIds[i];
      expect([userId, versionsOf(userId)]).toEqual([userId, [{ type: 'message', message, flags: flagsOf(userId) }]]);
    }
    // Users not listed, below, between and above the listed ones: the version for others, once.
    for (const userId of [5, 1_000_001, 1_000_000 + 67 * 75_000 + 30, 99_000_000])
      expect([userId, versionsOf(userId)]).toEqual([userId, [others]]);
  }, 120000);
});
