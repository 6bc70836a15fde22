// A stream number allocated but never written (its producer died, or the answer to its allocation
// was lost and the SDK allocated again) is skipped a fixed time after its allocation, whatever
// else happens on the stream meanwhile: steady traffic after it and polls that come and go do not
// postpone it, so the events behind it are delivered once that deadline passes.
import { advanceClock, freezeClock, nowMs } from '../../../lib/clock';
import { GAP_DEADLINE_MS, fetchEvents, registerQueue } from '../../../lib/events/queues';
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import type { User } from '../../../lib/models/user';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { PLAIN_QUEUE } from '../../helpers/events';

const REALM = 2;
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
let nextUser = 810_000;

const openQueue = async () => {
  const user = { id: (nextUser += 1), realmId: REALM } as User;
  const queue = await registerQueue(user, { ...PLAIN_QUEUE, applyMarkdown: true });
  let lastEventId = -1;
  /** One dont_block poll, acknowledging what the previous one returned. */
  const poll = async (): Promise<string[]> => {
    const events = await fetchEvents(user, { queueId: queue.queueId, lastEventId, dontBlock: true });
    if (events.length > 0) lastEventId = events[events.length - 1]!.id;
    return events.map((e) => (e as AlertWordsEvent).alert_words[0]!);
  };
  /** One long-poll, acknowledging what the previous one returned. */
  const wait = async (): Promise<string[]> => {
    const events = await fetchEvents(user, { queueId: queue.queueId, lastEventId, dontBlock: false });
    if (events.length > 0) lastEventId = events[events.length - 1]!.id;
    return events.map((e) => (e.type === 'heartbeat' ? 'heartbeat' : (e as AlertWordsEvent).alert_words[0]!));
  };
  return { poll, wait };
};

describe('a stream number allocated but never written', () => {
  it('is skipped at a fixed deadline after its allocation under steady traffic, and the events behind it are delivered once', async () => {
    freezeClock(Date.now());
    const { poll } = await openQueue();
    const orphanedAt = nowMs();
    await streams.allocate(eventKeys.realmStream(REALM, 0), orphanedAt);
    const delivered: { tag: string; atMs: number }[] = [];
    // An event every 500 ms, and a poll after each: every allocation and every poll is newer than the orphan.
    for (let i = 0; nowMs() - orphanedAt <= GAP_DEADLINE_MS + 1000; i += 1) {
      advanceClock(500);
      await sendEvent(REALM, tagged(`e${i}`), 'realm');
      for (const tag of await poll()) delivered.push({ tag, atMs: nowMs() - orphanedAt });
    }
    const sent = Math.round((GAP_DEADLINE_MS + 1000) / 500) + 1;
    expect(delivered.map((d) => d.tag)).toEqual(Array.from({ length: sent }, (_, i) => `e${i}`));
    // Nothing before the deadline, everything held back at the first poll after it.
    const firstAt = Math.min(...delivered.map((d) => d.atMs));
    expect(firstAt).toBeGreaterThanOrEqual(GAP_DEADLINE_MS);
    expect(firstAt).toBeLessThan(GAP_DEADLINE_MS + 500);
  });

  it('holds the events behind it until the deadline, however many polls come', async () => {
    freezeClock(Date.now());
    const { poll } = await openQueue();
    await streams.allocate(eventKeys.realmStream(REALM, 0), nowMs());
    await sendEvent(REALM, tagged('behind'), 'realm');
    for (let waited = 0; waited < GAP_DEADLINE_MS; waited += 1000) {
      expect(await poll()).toEqual([]);
      advanceClock(1000);
    }
    expect(await poll()).toEqual(['behind']);
    expect(await poll()).toEqual([]);
  });

  it('is skipped at the deadline when it is the last number allocated (a producer between its two writes)', async () => {
    freezeClock(Date.now());
    const { poll } = await openQueue();
    const shard = eventKeys.realmStream(REALM, 0);
    await streams.allocate(shard, nowMs());
    advanceClock(GAP_DEADLINE_MS);
    await sendEvent(REALM, tagged('after'), 'realm');
    expect(await poll()).toEqual(['after']);
  });

  it('wakes a waiting poll stopped at it when its deadline passes, with nothing else arriving', async () => {
    const { wait } = await openQueue();
    const allocatedAt = Date.now();
    await streams.allocate(eventKeys.realmStream(REALM, 0), nowMs());
    await sendEvent(REALM, tagged('behind'), 'realm');
    // Without a wake at the deadline the poll would read again only at its queue recheck (10 s).
    expect(await wait()).toEqual(['behind']);
    const tookMs = Date.now() - allocatedAt;
    expect(tookMs).toBeGreaterThanOrEqual(GAP_DEADLINE_MS);
    expect(tookMs).toBeLessThan(GAP_DEADLINE_MS + 1000);
  });
});
