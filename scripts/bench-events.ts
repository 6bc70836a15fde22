// Benchmark of the event system against DynamoDB Local: delivery latency, and DynamoDB requests
// and capacity units per operation (from the client's own counters, ReturnConsumedCapacity TOTAL).
import { handler as register } from '../functions/events/register';
import { fetchEvents, registerQueue } from '../lib/events/queues';
import { costPerClientMonth, deployedSettings } from './bench-capacity';
import { sendEvent } from '../lib/events/send';
import { config } from '../lib/config';
import { dbMetrics } from '../lib/store/client';
import * as usersStore from '../lib/store/users';
import { BENCH_QUEUE, buildBenchEvent, costOf, deliveryLatency, printTable, type Cost } from './bench-util';

const REALM = 2;

const descriptor = { ...BENCH_QUEUE, applyMarkdown: false };

/**
 * p50/p99 from the producer's sendEvent returning to the long-poller holding the event, each event
 * tagged `bench-<i>` and sent to Iago alone or to the whole organization, in turn.
 */
const eventDeliveryLatency = async (count: number, minPauseMs: number, maxPauseMs: number) => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  return deliveryLatency({
    user: iago,
    queue: descriptor,
    count,
    minPauseMs,
    maxPauseMs,
    send: async (i) => {
      const tag = `bench-${i}`;
      await sendEvent(REALM, buildBenchEvent(tag), i % 2 === 0 ? { users: [iago.id] } : 'realm');
      return tag;
    },
    recognise: (e) => (e.type === 'alert_words' ? e.alert_words[0] : undefined),
    wake: () => sendEvent(REALM, buildBenchEvent('stop'), { users: [iago.id] }),
    noun: 'event',
    checkEveryMs: 5,
  });
};

export const benchEvents = async (): Promise<void> => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;

  console.log('\n## Event system\n');
  const busy = Number(process.env.BENCH_EVENTS ?? 200);
  const idle = Number(process.env.BENCH_IDLE_EVENTS ?? 20);
  const show = (label: string, l: { p50: number; p99: number; max: number }) =>
    console.log(
      `delivery latency, ${label} (send returns → long-poller has it): p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`,
    );
  show(`${busy} events 0-250 ms into a wait`, await eventDeliveryLatency(busy, 0, 250));
  show(`${idle} events 2-18 s into a wait`, await eventDeliveryLatency(idle, 2000, 18000));
  console.log(
    `(check interval: from ${config.pollMinIntervalMs()} ms growing to ${config.pollMaxIntervalMs()} ms; EVENTS_POLL_MIN_INTERVAL_MS / EVENTS_POLL_MAX_INTERVAL_MS)`,
  );

  const rows: [string, Cost][] = [];
  rows.push([
    'POST /register, queue only (fetch_event_types=[])',
    await costOf(() =>
      register({
        version: '2.0',
        routeKey: 'POST /register',
        rawPath: '/api/v1/register',
        rawQueryString: '',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
        body: 'fetch_event_types=%5B%5D',
        isBase64Encoded: false,
        requestContext: { http: { method: 'POST' } },
      } as never),
    ),
  ]);
  const queue = await registerQueue(iago, descriptor);
  rows.push(['sendEvent to one user (producer side)', await costOf(() => sendEvent(REALM, buildBenchEvent('one'), { users: [iago.id] }))]);
  rows.push(['sendEvent to the organization (producer side)', await costOf(() => sendEvent(REALM, buildBenchEvent('all'), 'realm'))]);
  rows.push([
    'GET /events returning 2 waiting events (consumer side)',
    await costOf(() => fetchEvents(iago, { queueId: queue.queueId, lastEventId: -1, dontBlock: true })),
  ]);
  rows.push([
    'GET /events acknowledging them, nothing new, dont_block',
    await costOf(() => fetchEvents(iago, { queueId: queue.queueId, lastEventId: 1, dontBlock: true })),
  ]);
  const idlePoll = await costOf(() => fetchEvents(iago, { queueId: queue.queueId, lastEventId: 1, dontBlock: false }));
  rows.push([`idle long-poll, full wait (${(idlePoll.ms / 1000).toFixed(1)} s) ending in a heartbeat`, idlePoll]);
  printTable(rows);
  const perMinute = (units: number) => ((units * 60000) / idlePoll.ms).toFixed(1);
  console.log(
    `\nAn idle connected client costs about ${perMinute(idlePoll.requests)} DynamoDB requests and ${perMinute(idlePoll.readUnits)} read units per minute (plus ${perMinute(idlePoll.writeUnits)} write units: an idle poll writes only a due lease, about every 5 minutes).`,
  );
  // An idle client polls back to back: one cycle per idle poll.
  const perSecond = (x: number) => (x * 1000) / idlePoll.ms;
  const month = costPerClientMonth({
    memoryMb: deployedSettings().memoryMb,
    pollsPerSec: perSecond(1),
    readUnitsPerSec: perSecond(idlePoll.readUnits),
    writeUnitsPerSec: perSecond(idlePoll.writeUnits),
  });
  console.log(`An idle always-connected client-month at list prices, from this poll's counts: ${month.line}.`);

  console.log('\nCost of one organization-wide event as the number of queues grows (each queue then polls once, dont_block):');
  const growth: [string, Cost][] = [];
  for (const n of [1, 10, 100, 1000]) {
    const queues = [];
    for (let i = 0; i < n; i += 1) queues.push(await registerQueue(iago, descriptor));
    const send = await costOf(() => sendEvent(REALM, buildBenchEvent(`growth-${n}`), 'realm'));
    dbMetrics.reset();
    const readStarted = performance.now();
    for (let i = 0; i < queues.length; i += 50) {
      await Promise.all(queues.slice(i, i + 50).map((q) => fetchEvents(iago, { queueId: q.queueId, lastEventId: -1, dontBlock: true })));
    }
    const delivery = { ...dbMetrics.snapshot(), ms: performance.now() - readStarted };
    growth.push([`${n} queues: send`, send]);
    growth.push([`${n} queues: all queues fetch it`, { ...delivery, requests: delivery.requests }]);
  }
  printTable(growth);
};
