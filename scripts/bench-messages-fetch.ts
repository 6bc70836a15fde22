// Benchmark of GET /messages against DynamoDB Local: 100 messages of a channel narrow and of a
// direct-message narrow, for Iago, as the organization grows to 10, 1,000 and 10,000 extra users,
// each with a channel and a message of its own. DynamoDB requests and read units per fetch, and
// latency. Run by `npm run bench` (section `messages-fetch`), or alone: `npm run bench messages-fetch`.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as getMessages } from '../functions/messages/list';
import type { Channel } from '../lib/models/channel';
import type { Message } from '../lib/models/message';
import * as channelsStore from '../lib/store/channels';
import { buildChannelItem, buildSubscriptionItem } from '../lib/store/channels';
import { batchPut, type Item } from '../lib/store/common';
import { buildMessageItem, buildUserMessageItem } from '../lib/store/messages';
import { buildUserItem } from '../lib/store/users';
import * as usersStore from '../lib/store/users';
import { benchSubscription, measure, printTable, scalingStatement, type Cost } from './bench-util';
import { generatedMember } from './seed';

const REALM = 2;
const IAGO = 11;
const HAMLET = 10;
const RUNS = Number(process.env.BENCH_FETCH_RUNS ?? 20);
const SCALES = (process.env.BENCH_FETCH_SCALES ?? '10,1000,10000').split(',').map(Number);
const PAGE = 100;
const CONVERSATION_MESSAGES = 300;
const WRITERS = 8;

const FIRST_USER = 300000;
const FIRST_CHANNEL = 300000;
const FETCH_CHANNEL = 299999;
const FIRST_MESSAGE = 3000000;

const writeAll = async (items: Item[]): Promise<void> => {
  const slice = Math.ceil(items.length / WRITERS);
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => batchPut('main', items.slice(w * slice, (w + 1) * slice))));
};

const publicChannel = async (id: number, name: string): Promise<Channel> => {
  const template = (await channelsStore.getChannel(REALM, 3))!; // Verona: the development data's public channel defaults
  return { ...template, id, name, description: `Generated channel ${name}`, subscriberCount: 1, firstMessageId: null, lastMessageAt: null };
};

const subscription = (userId: number, channelId: number) => benchSubscription(REALM, userId, channelId);

const message = (id: number, senderId: number, streamId: number | null, dmUserIds: number[], now: number): Message => ({
  id,
  realmId: REALM,
  senderId,
  streamId,
  topic: streamId === null ? '' : `topic ${id % 10}`,
  dmUserIds,
  content: `Benchmark message ${id} with a few words of text in it.`,
  renderedContent: `<p>Benchmark message ${id} with a few words of text in it.</p>`,
  dateSent: now - 100000 + (id - FIRST_MESSAGE),
});

/** Iago's conversations to fetch from: a channel with Hamlet, and their direct messages (half unread). */
const addConversations = async (): Promise<void> => {
  const now = Math.floor(Date.now() / 1000);
  const items: Item[] = [
    buildChannelItem(await publicChannel(FETCH_CHANNEL, 'bench-fetch')),
    buildSubscriptionItem(subscription(IAGO, FETCH_CHANNEL)),
    buildSubscriptionItem(subscription(HAMLET, FETCH_CHANNEL)),
  ];
  for (let i = 0; i < CONVERSATION_MESSAGES * 2; i += 1) {
    const dm = i % 2 === 1;
    const m = message(FIRST_MESSAGE + i, HAMLET, dm ? null : FETCH_CHANNEL, dm ? [HAMLET, IAGO] : [], now);
    items.push(buildMessageItem(m), buildUserMessageItem(m, HAMLET, ['read']), buildUserMessageItem(m, IAGO, i % 4 < 2 ? [] : ['read']));
  }
  await writeAll(items);
};

/** Extra members `from`..`to`-1, each with a public channel of their own holding one message. */
const growOrganization = async (from: number, to: number): Promise<void> => {
  const now = Math.floor(Date.now() / 1000);
  const template = await publicChannel(0, 'template');
  const items: Item[] = [];
  for (let i = from; i < to; i += 1) {
    const user = generatedMember(FIRST_USER + i, `fetch${i}@zulip.com`, `Fetch User ${i}`);
    const channelId = FIRST_CHANNEL + i;
    const m = message(FIRST_MESSAGE + CONVERSATION_MESSAGES * 2 + i, user.id, channelId, [], now);
    items.push(
      buildUserItem(user),
      buildChannelItem({ ...template, id: channelId, name: `fetch-${i}` }),
      buildSubscriptionItem(subscription(user.id, channelId)),
      buildMessageItem(m),
      buildUserMessageItem(m, user.id, ['read']),
    );
  }
  await writeAll(items);
};

const fetchEvent = (auth: string, narrow: unknown[]): APIGatewayProxyEventV2 => {
  const query = { anchor: 'newest', num_before: String(PAGE), num_after: '0', narrow: JSON.stringify(narrow) };
  return {
    version: '2.0',
    routeKey: 'GET /messages',
    rawPath: '/api/v1/messages',
    rawQueryString: new URLSearchParams(query).toString(),
    queryStringParameters: query,
    headers: { authorization: auth, host: 'localhost' },
    isBase64Encoded: false,
    requestContext: { http: { method: 'GET' } },
  } as never;
};

const NARROWS: [string, unknown[]][] = [
  ['channel narrow', [{ operator: 'channel', operand: FETCH_CHANNEL }]],
  ['direct-message narrow', [{ operator: 'dm', operand: [HAMLET] }]],
];

const fetchRow = async (label: string, auth: string, narrow: unknown[]): Promise<[string, Cost & { p50: number; p99: number }]> => {
  const run = async () => {
    const response = await getMessages(fetchEvent(auth, narrow));
    const body = JSON.parse(response.body) as { messages?: unknown[] };
    if (response.statusCode !== 200 || body.messages?.length !== PAGE)
      throw new Error(`GET /messages failed: ${response.statusCode} ${response.body.slice(0, 200)}`);
  };
  await run(); // warm-up
  return [label, await measure(RUNS, run)];
};

export const benchMessagesFetch = async (): Promise<void> => {
  console.log(`\n## messages-fetch: GET /messages, ${PAGE} messages (anchor newest), ${RUNS} runs each`);
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  await addConversations();
  const rows: [string, Cost & { p50: number; p99: number }][] = [];
  const bySize: Record<string, { size: number; cost: Cost }[]> = {};
  let users = 0;
  for (const scale of SCALES) {
    await growOrganization(users, scale);
    users = scale;
    for (const [name, narrow] of NARROWS) {
      const row = await fetchRow(`${scale} extra users/channels/messages: ${name}`, auth, narrow);
      rows.push(row);
      (bySize[name] ??= []).push({ size: scale, cost: row[1] });
    }
  }
  printTable(rows);
  for (const [name] of NARROWS) console.log(scalingStatement(`GET /messages, ${name}`, bySize[name]));
};
