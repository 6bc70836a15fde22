// Benchmark of delivery behind an orphaned stream number (issue 28): a number allocated on the
// shard a long-poller reads and never written (a producer that died between its two writes, or an
// allocation the SDK repeated after losing its answer), then events to the whole organization
// behind it. The poller gets them once the number's deadline (GAP_DEADLINE_MS from its allocation)
// passes, whatever else happens on the shard: measured from the send returning to the poller
// holding the event, with an orphan before every event (each one waits out a whole deadline), and
// with one orphan every 20 events of steady traffic.
import { nowMs } from '../lib/clock';
import { GAP_DEADLINE_MS } from '../lib/events/queues';
import { sendEvent, userShardStream } from '../lib/events/send';
import * as streams from '../lib/store/event-streams';
import * as usersStore from '../lib/store/users';
import { BENCH_QUEUE, buildBenchEvent, deliveryLatency } from './bench-util';

const REALM = 2;

const latencyBehindOrphans = async (count: number, orphanEvery: number, maxPauseMs: number) => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const shard = userShardStream(REALM, iago.id);
  return deliveryLatency({
    user: iago,
    queue: { ...BENCH_QUEUE, applyMarkdown: false },
    count,
    minPauseMs: 0,
    maxPauseMs,
    send: async (i) => {
      if (i % orphanEvery === 0) await streams.allocate(shard, nowMs());
      const tag = `gap-${orphanEvery}-${i}`;
      await sendEvent(REALM, buildBenchEvent(tag), 'realm');
      return tag;
    },
    recognise: (e) => (e.type === 'alert_words' ? e.alert_words[0] : undefined),
    wake: () => sendEvent(REALM, buildBenchEvent('stop'), 'realm'),
    noun: 'event',
    checkEveryMs: 5,
  });
};

export const benchGap = async (): Promise<void> => {
  console.log(`\n## Delivery behind an orphaned stream number (deadline ${GAP_DEADLINE_MS} ms from its allocation)\n`);
  const show = (label: string, l: { p50: number; p99: number; max: number }) =>
    console.log(`${label}: p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`);
  const every = Number(process.env.BENCH_GAP_EVENTS ?? 30);
  show(`${every} events, each behind a new orphan, 0-2 s apart`, await latencyBehindOrphans(every, 1, 2000));
  const steady = Number(process.env.BENCH_GAP_STEADY_EVENTS ?? 200);
  show(`${steady} events 0-250 ms apart, an orphan before every 20th`, await latencyBehindOrphans(steady, 20, 250));
};
