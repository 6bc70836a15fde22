// Benchmark of channel administration against DynamoDB Local: archiving a public channel
// (DELETE /streams/{stream_id}) of 10 and of 1,000 subscribers, and moving a whole topic to another
// channel (PATCH /messages/{message_id} with stream_id and propagate_mode change_all), as Iago:
// DynamoDB requests, read and write units, and time per operation, the background jobs it starts
// (Notification Bot's notices) included. A move prints the request alone (it moves
// MOVE_INLINE_MESSAGES and must stay inside its 10 s Lambda timeout), its messageMove job runs
// (MOVE_JOB_MESSAGES each, inside the job's 120 s), and the whole move. The issue asks about a
// 10,000-message topic: BENCH_ADMIN_MOVE_MESSAGES=10000 measures it. Run by `npm run bench`
// (section `admin`), or alone: `npm run bench admin`.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as archiveChannel } from '../functions/channels/archive';
import { handler as updateMessage } from '../functions/messages/update';
import { doMessageMove, type MoveJob } from '../lib/actions/messages/move';
import { config } from '../lib/config';
import { newSubscription } from '../lib/models/channel';
import type { Message } from '../lib/models/message';
import * as channelsStore from '../lib/store/channels';
import { batchPut, type Item } from '../lib/store/common';
import { defineJob, holdJobs, settleJobs } from '../lib/store/jobs';
import { buildMessageItem, buildMessageRecipientsItems, buildTopicSummaryItem, buildUserMessageItem } from '../lib/store/messages';
import * as editsStore from '../lib/store/message-edits';
import * as usersStore from '../lib/store/users';
import { costOf, printTable, type Cost } from './bench-util';

const REALM = 2;
const VERONA = 3;
const IAGO = 11;
const HAMLET = 10;
const ARCHIVE_SIZES = (process.env.BENCH_ADMIN_SUBSCRIBERS ?? '10,1000').split(',').map(Number);
/**
 * Topic sizes moved. The request moves at most MOVE_INLINE_MESSAGES whatever the size; the jobs
 * move the rest at a cost per message that does not change with the topic's size, and DynamoDB
 * Local on two shared cores takes minutes for 10,000: by default 100 and 1,000 messages are
 * measured; BENCH_ADMIN_MOVE_MESSAGES=10000 measures that size.
 */
const MOVE_SIZES = (process.env.BENCH_ADMIN_MOVE_MESSAGES ?? '100,1000').split(',').map(Number);
const FIRST_ARCHIVE_CHANNEL = 700_000;
/** The channel pair of the n-th move: FIRST_MOVE_CHANNEL + 2n, from, and + 2n + 1, to. */
const FIRST_MOVE_CHANNEL = 700_100;
/** The messages of the n-th move start at FIRST_MOVED_MESSAGE + n × MOVE_ID_STRIDE. */
const FIRST_MOVED_MESSAGE = 9_000_000;
const MOVE_ID_STRIDE = 1_000_000;
const FIRST_FAKE_USER = 800_000;
const TOPIC = 'moving bench';
/** A route's Lambda timeout (functions/routes.js DEFAULT_TIMEOUT; neither route sets its own). */
const ROUTE_TIMEOUT_MS = 10_000;
/** The messageMove job's Lambda timeout (functions/routes.js JOBS). */
const JOB_TIMEOUT_MS = 120_000;

/** A request as API Gateway delivers it, with a form body. */
const request = (auth: string, method: string, routeKey: string, path: string, pathParameters: Record<string, string>, body = {}) =>
  ({
    version: '2.0',
    routeKey: `${method} ${routeKey}`,
    rawPath: `/api/v1${path}`,
    rawQueryString: '',
    headers: { authorization: auth, host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
    pathParameters,
    body: new URLSearchParams(body).toString(),
    isBase64Encoded: false,
    requestContext: { http: { method } },
  }) as unknown as APIGatewayProxyEventV2;

/** A public channel (Verona's settings) subscribed by `subscriberIds`. */
const publicChannel = async (channelId: number, name: string, subscriberIds: number[]): Promise<Item[]> => {
  const verona = (await channelsStore.getChannel(REALM, VERONA))!;
  return [
    channelsStore.buildChannelItem({ ...verona, id: channelId, name, subscriberCount: subscriberIds.length, firstMessageId: null }),
    ...subscriberIds.map((userId) =>
      channelsStore.buildSubscriptionItem(newSubscription({ userId, channelId, realmId: REALM }, '#76ce90')),
    ),
  ];
};

/** Iago and `size - 1` other subscriber ids (not accounts: events and rows are written for them all the same). */
const subscribersOf = (size: number, offset: number): number[] => [
  IAGO,
  ...Array.from({ length: size - 1 }, (_, i) => FIRST_FAKE_USER + offset + i),
];

/**
 * The topic to move: `count` messages from Hamlet in one topic of a public channel that Iago and
 * Hamlet are subscribed to (as sends leave them: the message, its recipients record, a row per
 * recipient, the topic's summary), and the channel they move to, with the same subscribers.
 */
const seedTopic = async (move: MovePlan): Promise<number> => {
  const { count, from, to, firstId } = move;
  const now = Math.floor(Date.now() / 1000);
  const recipients = [IAGO, HAMLET];
  const items: Item[] = [
    ...(await publicChannel(from, `move bench from ${count}`, recipients)),
    ...(await publicChannel(to, `move bench to ${count}`, recipients)),
    buildTopicSummaryItem(REALM, { channelId: from, topic: TOPIC, maxMessageId: firstId + count - 1 }),
  ];
  for (let i = 0; i < count; i += 1) {
    const m: Message = {
      id: firstId + i,
      realmId: REALM,
      senderId: HAMLET,
      streamId: from,
      topic: TOPIC,
      dmUserIds: [],
      content: `Message ${i} of the topic that moves.`,
      renderedContent: `<p>Message ${i} of the topic that moves.</p>`,
      dateSent: now - count + i,
    };
    items.push(
      buildMessageItem(m),
      ...buildMessageRecipientsItems(m, recipients),
      buildUserMessageItem(m, HAMLET, ['read']),
      buildUserMessageItem(m, IAGO, i % 2 === 0 ? [] : ['read']),
    );
  }
  await batchPut('main', items, { concurrency: 8 });
  return items.length;
};

type MovePlan = { count: number; from: number; to: number; firstId: number };

const expectOk = (what: string, response: { statusCode?: number; body?: string }): void => {
  if (response.statusCode !== 200) throw new Error(`${what} failed: ${response.statusCode} ${response.body?.slice(0, 300)}`);
};

type MoveCost = { request: Cost; jobs: Cost; whole: Cost; runs: number; slowestRunMs: number };

/** How long each messageMove run took, while a move is measured. */
let runTimes: number[] = [];

const sum = (a: Cost, b: Cost): Cost => ({
  requests: a.requests + b.requests,
  readUnits: a.readUnits + b.readUnits,
  writeUnits: a.writeUnits + b.writeUnits,
  ms: a.ms + b.ms,
});

/**
 * Seeds a topic of `plan.count` messages, moves it whole to the other channel, checks it arrived,
 * and returns the cost of the request alone (its jobs held until it answered), of the jobs it
 * started (the messageMove runs and Notification Bot's notices), and of both.
 */
const moveTopic = async (auth: string, plan: MovePlan): Promise<MoveCost> => {
  const seedStarted = performance.now();
  const seeded = await seedTopic(plan);
  console.log(
    `seeded ${plan.count.toLocaleString('en-US')} messages in one topic, 2 recipients each (${seeded.toLocaleString('en-US')} items) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const body = { stream_id: String(plan.to), propagate_mode: 'change_all', send_notification_to_old_thread: 'true' };
  const path = `/messages/${plan.firstId}`;
  runTimes = [];
  holdJobs();
  const requestCost = await costOf(async () => {
    expectOk(
      'move',
      await updateMessage(request(auth, 'PATCH', '/messages/{message_id}', path, { message_id: String(plan.firstId) }, body)),
    );
  });
  const jobsCost = await costOf(settleJobs);
  // Notification Bot's notice in the old topic stays there; the seeded messages must all have left.
  const seededIds = (ids: number[]) => ids.filter((id) => id >= plan.firstId).length;
  const left = seededIds(await editsStore.listMessageIdsOfTopic(plan.from, TOPIC));
  const arrived = seededIds(await editsStore.listMessageIdsOfTopic(plan.to, TOPIC));
  if (left !== 0 || arrived !== plan.count) throw new Error(`after the move: ${left} messages left behind, ${arrived} arrived`);
  return {
    request: requestCost,
    jobs: jobsCost,
    whole: sum(requestCost, jobsCost),
    runs: runTimes.length,
    slowestRunMs: Math.max(0, ...runTimes),
  };
};

export const benchAdmin = async (): Promise<void> => {
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  console.log(`\n## admin: archiving a channel and moving a whole topic to another channel (Iago; one request each, its jobs included)\n`);
  const rows: [string, Cost][] = [];

  for (const [i, size] of ARCHIVE_SIZES.entries()) {
    const channelId = FIRST_ARCHIVE_CHANNEL + i;
    await batchPut('main', await publicChannel(channelId, `archive bench ${size}`, subscribersOf(size, i * 100_000)), { concurrency: 8 });
    const cost = await costOf(async () => {
      expectOk(
        'archive',
        await archiveChannel(request(auth, 'DELETE', '/streams/{stream_id}', `/streams/${channelId}`, { stream_id: String(channelId) })),
      );
      await settleJobs();
    });
    if (!(await channelsStore.getChannel(REALM, channelId))?.isArchived) throw new Error(`channel ${channelId} was not archived`);
    rows.push([`DELETE /streams/{id}, ${size.toLocaleString('en-US')} subscribers`, cost]);
  }

  defineJob<MoveJob>('messageMove', async (job) => {
    const started = performance.now();
    await doMessageMove(job);
    runTimes.push(performance.now() - started);
  });
  const moves: { count: number; cost: MoveCost }[] = [];
  try {
    for (const [n, count] of MOVE_SIZES.entries()) {
      const plan = {
        count,
        from: FIRST_MOVE_CHANNEL + 2 * n,
        to: FIRST_MOVE_CHANNEL + 2 * n + 1,
        firstId: FIRST_MOVED_MESSAGE + n * MOVE_ID_STRIDE,
      };
      const cost = await moveTopic(auth, plan);
      moves.push({ count, cost });
      const size = `${count.toLocaleString('en-US')} messages`;
      rows.push([`PATCH /messages/{id} change_all to another channel, ${size}: the request`, cost.request]);
      rows.push([`  its jobs (${cost.runs} messageMove runs, the notices), ${size}`, cost.jobs]);
      rows.push([`  the whole move, ${size}`, cost.whole]);
    }
  } finally {
    defineJob('messageMove', doMessageMove);
  }

  printTable(rows);
  const largest = moves.reduce((a, b) => (b.count > a.count ? b : a));
  const per = (value: number) => value / largest.count;
  const { request: req, whole, runs, slowestRunMs } = largest.cost;
  console.log(
    `\nPer moved message (${largest.count.toLocaleString('en-US')}-message move, request and jobs): ${per(whole.requests).toFixed(1)} requests, ` +
      `${per(whole.readUnits).toFixed(1)} read CU, ${per(whole.writeUnits).toFixed(1)} write CU, ${per(whole.ms).toFixed(1)} ms.`,
  );
  console.log(
    `The request moves at most ${config.moveInlineMessages()} messages (MOVE_INLINE_MESSAGES) whatever the topic's size: ` +
      `${(req.ms / 1000).toFixed(1)} s, ${req.ms < ROUTE_TIMEOUT_MS ? 'within' : 'PAST'} the route's ${ROUTE_TIMEOUT_MS / 1000} s Lambda timeout. ` +
      `The rest took ${runs} messageMove runs of up to ${config.moveJobMessages()} messages (MOVE_JOB_MESSAGES), the slowest ` +
      `${(slowestRunMs / 1000).toFixed(1)} s, ${slowestRunMs < JOB_TIMEOUT_MS ? 'within' : 'PAST'} the job's ${JOB_TIMEOUT_MS / 1000} s timeout.`,
  );
};
