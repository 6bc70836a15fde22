// sendEvent's fan-out: each recipient's own payload, every recipient reached, and never more than
// FANOUT_CONCURRENCY appends in flight however many recipients a send has.
import { handler as getEvents } from '../../../functions/events/get';
import { mapLimited } from '../../../lib/concurrency';
import { FANOUT_CONCURRENCY, sendEvent, sendEventPerRecipient } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import { documentClient } from '../../../lib/store/client';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const RECIPIENTS = 3000;
const IAGO = 'iago@zulip.com';
const IAGO_ID = 11;
const HAMLET = 'hamlet@zulip.com';
const HAMLET_ID = 10;

const words = (userId: number): AlertWordsEvent => ({ type: 'alert_words', alert_words: [`for-${userId}`] });

/** Counts the DynamoDB requests in flight at once while `run` runs (the real client, observed). */
const maxInFlight = async (run: () => Promise<void>): Promise<number> => {
  const client = documentClient();
  const original = client.send.bind(client);
  let inFlight = 0;
  let max = 0;
  const spy = jest.spyOn(client, 'send').mockImplementation((async (command: Parameters<typeof original>[0]) => {
    inFlight += 1;
    max = Math.max(max, inFlight);
    try {
      return await original(command);
    } finally {
      inFlight -= 1;
    }
  }) as typeof client.send);
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return max;
};

const lastOfStream = async (userId: number) => {
  const stream = eventKeys.userStream(userId);
  const head = (await streams.getHeads([stream], { consistent: true })).get(stream)!;
  return (await streams.readAfter(stream, head.seq - 1, 1))[0]?.event;
};

describe('sendEvent fan-out', () => {
  it(`gives each of ${RECIPIENTS} recipients their own payload, with at most ${FANOUT_CONCURRENCY} writes in flight`, async () => {
    const userIds = Array.from({ length: RECIPIENTS }, (_, i) => 100_000 + i);
    const max = await maxInFlight(() => sendEventPerRecipient(userIds.map((userId) => ({ userId, event: words(userId) }))));
    expect(max).toBeLessThanOrEqual(FANOUT_CONCURRENCY);
    const received = await mapLimited(userIds, 16, lastOfStream);
    expect(received).toEqual(userIds.map(words));
  }, 120000);

  it(`sends one payload to ${RECIPIENTS} listed users with at most ${FANOUT_CONCURRENCY} writes in flight`, async () => {
    const userIds = Array.from({ length: RECIPIENTS }, (_, i) => 200_000 + i);
    const event = words(0);
    const max = await maxInFlight(() => sendEvent(2, event, { users: userIds }));
    expect(max).toBeLessThanOrEqual(FANOUT_CONCURRENCY);
    const sample = [userIds[0], userIds[RECIPIENTS / 2], userIds[RECIPIENTS - 1]];
    expect(await mapLimited(sample, 3, lastOfStream)).toEqual([event, event, event]);
  }, 120000);

  it("delivers each user's own payload through GET /events", async () => {
    const iago = await openQueue(IAGO);
    const hamlet = await openQueue(HAMLET);
    await sendEventPerRecipient([
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
});
