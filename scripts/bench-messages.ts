// Benchmark of POST /messages against DynamoDB Local: a channel message to 10, 1,000 and 10,000
// subscribers (DynamoDB requests and write units of the send and of its fan-out job, latency
// p50/p99 of the request and of the whole delivery: every row and event written), and the delivery
// latency of a new message to a waiting queue.
import { handler as sendHandler } from '../functions/messages/send';
import { newSubscription } from '../lib/models/channel';
import * as channelsStore from '../lib/store/channels';
import { config } from '../lib/config';
import { dbMetrics } from '../lib/store/client';
import { batchPut } from '../lib/store/common';
import { settleJobs } from '../lib/store/jobs';
import * as usersStore from '../lib/store/users';
import { deployedSettings } from './bench-capacity';
import { BENCH_QUEUE, deliveryLatency, measure, percentile, printTable, type Cost } from './bench-util';

const REALM = 2;

/** A public channel copied from Denmark with `size` subscribers: Iago and generated user ids. */
export const channelOfSize = async (channelId: number, size: number): Promise<void> => {
  const denmark = (await channelsStore.getChannel(REALM, 1))!;
  const items = [channelsStore.buildChannelItem({ ...denmark, id: channelId, name: `bench ${size}`, subscriberCount: size })];
  const ids = [11, ...Array.from({ length: size - 1 }, (_, i) => 500000 + channelId * 100000 + i)];
  for (const userId of ids) {
    items.push(channelsStore.buildSubscriptionItem(newSubscription({ userId, channelId, realmId: REALM }, '#76ce90')));
  }
  await batchPut('main', items, { concurrency: 8 });
};

/** A POST /messages request as API Gateway delivers it. */
export const sendRequest = (auth: string, body: Record<string, string>) =>
  sendHandler({
    version: '2.0',
    routeKey: 'POST /messages',
    rawPath: '/api/v1/messages',
    rawQueryString: '',
    headers: {
      authorization: auth,
      'content-type': 'application/x-www-form-urlencoded',
      host: 'localhost',
      'user-agent': 'ZulipMobile/27.1',
    },
    body: new URLSearchParams(body).toString(),
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST' } },
  } as never) as Promise<{ statusCode: number; body: string }>;

/**
 * DynamoDB writes per channel message, request and fan-out job, with the organization's stream in
 * `shards` shards (the channels benchMessages made): write requests (a BatchWriteItem of 25 items
 * is one) and write units (each item written, its index entries included).
 */
const writesPerMessage = async (auth: string, sizes: [number, number, number][], shards: number): Promise<void> => {
  const saved = process.env.EVENTS_REALM_SHARDS;
  process.env.EVENTS_REALM_SHARDS = String(shards);
  const lines: string[] = [];
  try {
    for (const [size, channelId] of sizes) {
      const n = 3;
      dbMetrics.reset();
      for (let i = 0; i < n; i += 1) {
        const out = await sendRequest(auth, { type: 'stream', to: String(channelId), topic: 't0', content: `writes ${i}` });
        if (out.statusCode !== 200) throw new Error(`send failed: ${out.body}`);
        await settleJobs();
      }
      const { writeRequests, writeUnits } = dbMetrics.snapshot();
      lines.push(
        `${size.toLocaleString('en-US')} subscribers: ${(writeRequests / n).toFixed(1)} write requests, ${(writeUnits / n).toFixed(1)} write units`,
      );
    }
  } finally {
    if (saved === undefined) delete process.env.EVENTS_REALM_SHARDS;
    else process.env.EVENTS_REALM_SHARDS = saved;
  }
  console.log(`\nWrites per channel message with ${shards} organization stream shards (request and fan-out job, 3 sends each):`);
  for (const line of lines) console.log(`  ${line}`);
};

export const benchMessages = async (): Promise<void> => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  console.log('\n## Messages: POST /messages\n');
  const sizes: [number, number, number][] = [
    [10, 900001, Number(process.env.BENCH_SENDS_10 ?? 30)],
    [1000, 900002, Number(process.env.BENCH_SENDS_1000 ?? 20)],
    [10000, 900003, Number(process.env.BENCH_SENDS_10000 ?? 5)],
  ];
  const rows: [string, Cost & { p50: number; p99: number }][] = [];
  const requestRows: [string, Cost & { p50: number; p99: number }][] = [];
  for (const [size, channelId, n] of sizes) {
    await channelOfSize(channelId, size);
    await sendRequest(auth, { type: 'stream', to: String(channelId), topic: 'warm-up', content: 'warm' });
    await settleJobs();
    // The request alone (its response), then the whole delivery: until the fan-out job (past
    // config.messageInlineRecipients()) has written every row and event. Both counted per send.
    const requestTimes: number[] = [];
    const request = { requests: 0, readUnits: 0, writeUnits: 0 };
    const cost = await measure(n, async (i) => {
      const before = dbMetrics.snapshot();
      const started = performance.now();
      const out = await sendRequest(auth, {
        type: 'stream',
        to: String(channelId),
        topic: `t${i % 3}`,
        content: `message ${i} to ${size}`,
      });
      requestTimes.push(performance.now() - started);
      const after = dbMetrics.snapshot();
      request.requests += after.requests - before.requests;
      request.readUnits += after.readUnits - before.readUnits;
      request.writeUnits += after.writeUnits - before.writeUnits;
      if (out.statusCode !== 200) throw new Error(`send failed: ${out.body}`);
      await settleJobs();
    });
    const label = `channel of ${size.toLocaleString('en-US')} subscribers (${n} sends)`;
    requestRows.push([
      `POST /messages request, ${label}`,
      {
        requests: request.requests / n,
        readUnits: request.readUnits / n,
        writeUnits: request.writeUnits / n,
        ms: requestTimes.reduce((a, b) => a + b, 0) / n,
        p50: percentile(requestTimes, 50),
        p99: percentile(requestTimes, 99),
      },
    ]);
    rows.push([`POST /messages until delivered, ${label}`, cost]);
  }
  console.log(
    `The sender's request (past ${config.messageInlineRecipients()} recipients it writes the message and the sender's row, and a job the rest):\n`,
  );
  printTable(requestRows);
  console.log('\nThe whole send, request and fan-out job, until every row and event is written:\n');
  printTable(rows);
  const [small, , large] = rows.map(([, c]) => c);
  console.log(
    `\nWrite units per send: ${rows.map(([, c]) => c.writeUnits.toFixed(0)).join(' / ')} for 10 / 1,000 / 10,000 subscribers ` +
      `(${((large.writeUnits - small.writeUnits) / (10000 - 10)).toFixed(2)} WCU per added recipient: its row with its index entries; the events are one shared append per organization stream shard), ` +
      'growing linearly with the recipients, as upstream writes one UserMessage row per recipient.',
  );

  // As deployed (serverless.yml), and with the 200 shards deployed before issue 28 for comparison.
  const { shards } = deployedSettings();
  await writesPerMessage(auth, sizes, shards);
  await writesPerMessage(auth, sizes, 200);

  // Delivery latency: a long-poller waits on Iago's queue; each message to the 10-subscriber channel
  // is sent after a random pause; measured from the send's response to the poller holding it.
  const count = Number(process.env.BENCH_MESSAGE_EVENTS ?? 200);
  const latency = await deliveryLatency({
    user: iago,
    queue: { ...BENCH_QUEUE, eventTypes: ['message'], applyMarkdown: false },
    count,
    minPauseMs: 0,
    maxPauseMs: 250,
    send: async (i) => {
      const out = await sendRequest(auth, { type: 'stream', to: '900001', topic: 'latency', content: `latency ${i}` });
      return Number(JSON.parse(out.body).id);
    },
    recognise: (e) => (e.type === 'message' ? Number((e.message as { id: number }).id) : undefined),
    wake: () => sendRequest(auth, { type: 'stream', to: '900001', topic: 'latency', content: 'stop' }),
    noun: 'message',
    checkEveryMs: 2,
  });
  console.log(
    `message event delivery latency, ${count} messages 0-250 ms into a wait (send returns → long-poller has it): ` +
      `p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms`,
  );
};
