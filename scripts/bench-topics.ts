// Benchmark of GET /users/me/{stream_id}/topics against DynamoDB Local: p50 latency and DynamoDB
// requests and read units per call for Iago, on a public channel of 10 and of 10,000 topics. The
// endpoint reads only the per-topic summaries every send keeps, so the channel's number of
// messages does not enter; its number of topics does (1 MB of summaries per query page). Run by
// `npm run bench` (scripts/bench.ts), or alone: `npm run bench topics`.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as listTopics } from '../functions/topics/list';
import * as channelsStore from '../lib/store/channels';
import { batchPut } from '../lib/store/common';
import { buildTopicSummaryItem } from '../lib/store/messages';
import * as usersStore from '../lib/store/users';
import { measure, printTable, scalingStatement, type Cost } from './bench-util';

const REALM = 2;
const VERONA = 3;
const RUNS = Number(process.env.BENCH_TOPICS_RUNS ?? 20);
const SIZES = (process.env.BENCH_TOPICS_SIZES ?? '10,10000').split(',').map(Number);
const FIRST_CHANNEL = 90000;
const FIRST_MESSAGE = 5_000_000;

const topicsEvent = (auth: string, channelId: number): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /api/v1/users/me/{stream_id}/topics',
    rawPath: `/api/v1/users/me/${channelId}/topics`,
    rawQueryString: '',
    headers: { authorization: auth, host: 'localhost' },
    pathParameters: { stream_id: String(channelId) },
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET' } },
  }) as never;

/** A public channel (Verona's settings) with `count` topics, each with its summary as sends leave it. */
const channelWithTopics = async (channelId: number, count: number): Promise<void> => {
  const verona = (await channelsStore.getChannel(REALM, VERONA))!;
  await batchPut('main', [channelsStore.buildChannelItem({ ...verona, id: channelId, name: `topics bench ${count}` })]);
  const summaries = Array.from({ length: count }, (_, i) =>
    buildTopicSummaryItem(REALM, {
      channelId,
      topic: `bench topic ${String(i).padStart(5, '0')}`,
      maxMessageId: FIRST_MESSAGE + channelId * 10 + i,
    }),
  );
  await batchPut('main', summaries, { concurrency: 8 });
};

export const benchTopics = async (): Promise<void> => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  console.log(`\n## GET /users/me/{stream_id}/topics (Iago, a public channel; ${RUNS} runs each; DynamoDB cost per call)\n`);
  const rows: [string, Cost & { p50: number; p99: number }][] = [];
  const bySize: { size: number; cost: Cost }[] = [];
  for (const [i, size] of SIZES.entries()) {
    const channelId = FIRST_CHANNEL + i;
    await channelWithTopics(channelId, size);
    const cost = await measure(RUNS, async () => {
      const response = await listTopics(topicsEvent(auth, channelId));
      if (response.statusCode !== 200) throw new Error(`topics failed: ${response.statusCode} ${response.body}`);
      const count = (JSON.parse(response.body) as { topics: unknown[] }).topics.length;
      if (count !== size) throw new Error(`expected ${size} topics, got ${count}`);
    });
    rows.push([`${size.toLocaleString('en-US')} topics`, cost]);
    bySize.push({ size, cost });
  }
  printTable(rows);
  console.log(`\n${scalingStatement('topics of a channel', bySize)} (the number of messages never enters: one summary per topic)`);
};
