// Benchmark of POST /register with every section wanted, against DynamoDB Local: p50 latency and
// DynamoDB requests and capacity units for Iago, per section on the development data, and as the
// organization grows to 10, 1,000 and 10,000 extra users and channels with 100,000 messages in
// Iago's own history. Run by `npm run bench` (scripts/bench.ts), or alone: `npm run bench register`.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as register } from '../functions/events/register';
import type { Message } from '../lib/models/message';
import { buildChannelItem, buildSubscriptionItem } from '../lib/store/channels';
import { type Item } from '../lib/store/common';
import { buildMessageItem, buildUserMessageItem } from '../lib/store/messages';
import { buildUserItem } from '../lib/store/users';
import * as usersStore from '../lib/store/users';
import { benchChannel, benchSubscription, measure, printTable, scalingStatement, writeAllItems, type Cost } from './bench-util';
import { createTables } from './local-dynamo';
import { generatedMember, seedDevRealm } from './seed';

const REALM = 2;
const IAGO = 'iago@zulip.com';
const RUNS = Number(process.env.BENCH_REGISTER_RUNS ?? 10);
const HISTORY_MESSAGES = Number(process.env.BENCH_REGISTER_MESSAGES ?? 100000);
const SCALES = (process.env.BENCH_REGISTER_SCALES ?? '10,1000,10000').split(',').map(Number);

const FIRST_USER = 200000;
const FIRST_CHANNEL = 100000;
const HISTORY_CHANNEL = 99999;
const FIRST_MESSAGE = 1000000;

/** Sections selected by fetch_event_types (null: everything, as a client that names none). */
const SECTIONS: [string, string[] | null][] = [
  ['everything (no event_types)', null],
  ['organization directory: realm_user', ['realm_user']],
  ['organization directory: subscription + stream', ['subscription', 'stream']],
  ['realm', ['realm']],
  ['unread_msgs (message + update_message_flags)', ['message', 'update_message_flags']],
  ['starred + recent conversations', ['starred_messages', 'recent_private_conversations']],
  [
    'personal: alert words, onboarding, snippets, views, drafts',
    ['alert_words', 'onboarding_steps', 'saved_snippets', 'navigation_views', 'drafts'],
  ],
];

/** Everything but the organization-wide directory (users, channels), whose size is the organization's. */
const ALL_BUT_DIRECTORY = [
  'realm',
  'user_settings',
  'channel_folders',
  'message',
  'update_message_flags',
  'starred_messages',
  'recent_private_conversations',
  'alert_words',
  'onboarding_steps',
  'saved_snippets',
  'navigation_views',
  'drafts',
  'custom_profile_fields',
  'presence',
  'realm_user_groups',
  'realm_linkifiers',
  'muted_users',
  'user_status',
  'user_topic',
  'realm_emoji',
];

const registerEvent = (auth: string, fetchEventTypes: string[] | null): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /register',
    rawPath: '/api/v1/register',
    rawQueryString: '',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
    body: fetchEventTypes === null ? '' : new URLSearchParams({ fetch_event_types: JSON.stringify(fetchEventTypes) }).toString(),
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST' } },
  }) as never;

const registerAs = async (auth: string, fetchEventTypes: string[] | null): Promise<Record<string, unknown>> => {
  const response = await register(registerEvent(auth, fetchEventTypes));
  if (response.statusCode !== 200) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as Record<string, unknown>;
};

const iagoAuth = async (): Promise<string> => {
  const [iago] = await usersStore.listByEmail(IAGO);
  return `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
};

const subscription = (userId: number, channelId: number) => benchSubscription(REALM, userId, channelId);

/** Extra members `from`..`to`-1 of the organization, each with a public channel of their own. */
const growOrganization = async (from: number, to: number): Promise<void> => {
  const items: Item[] = [];
  for (let i = from; i < to; i += 1) {
    const user = generatedMember(FIRST_USER + i, `bench${i}@zulip.com`, `Bench User ${i}`);
    items.push(
      buildUserItem(user),
      buildChannelItem(benchChannel(REALM, FIRST_CHANNEL + i, `bench-${i}`)),
      buildSubscriptionItem(subscription(user.id, FIRST_CHANNEL + i)),
    );
  }
  await writeAllItems(items);
};

/** A channel of Iago's with `count` messages he has read: his history grows, his unread does not. */
const addHistory = async (count: number): Promise<void> => {
  const now = Math.floor(Date.now() / 1000);
  const history = {
    ...benchChannel(REALM, HISTORY_CHANNEL, 'bench-history'),
    subscriberCount: 1,
    firstMessageId: FIRST_MESSAGE,
    lastMessageAt: now,
  };
  const items: Item[] = [buildChannelItem(history), buildSubscriptionItem(subscription(11, HISTORY_CHANNEL))];
  for (let i = 0; i < count; i += 1) {
    const m: Message = {
      id: FIRST_MESSAGE + i,
      realmId: REALM,
      senderId: 10,
      streamId: HISTORY_CHANNEL,
      topic: `topic ${i % 100}`,
      dmUserIds: [],
      content: `History message ${i}`,
      dateSent: now - (count - i),
    };
    items.push(buildMessageItem(m), buildUserMessageItem(m, 11, ['read']));
  }
  await writeAllItems(items);
};

const row = async (label: string, auth: string, sections: string[] | null): Promise<[string, Cost & { p50: number; p99: number }]> => {
  const body = await registerAs(auth, sections); // warm-up
  const size = `${(JSON.stringify(body).length / 1024).toFixed(0)} KiB`;
  return [`${label} (${size})`, await measure(RUNS, () => registerAs(auth, sections))];
};

export const benchRegister = async (): Promise<void> => {
  console.log(`\n## POST /register (Iago, ${RUNS} runs each; DynamoDB cost per call)\n`);
  const auth = await iagoAuth();
  const everything = await registerAs(auth, null);
  console.log(
    `Development data: ${(everything.realm_users as unknown[]).length} users, ${(everything.subscriptions as unknown[]).length} subscriptions, ` +
      `${(everything.unread_msgs as { count: number }).count} unread, response ${(JSON.stringify(everything).length / 1024).toFixed(1)} KiB\n`,
  );
  const rows: [string, Cost & { p50: number; p99: number }][] = [];
  for (const [label, sections] of SECTIONS) rows.push(await row(label, auth, sections));
  printTable(rows);

  const prefix = process.env.TABLE_PREFIX;
  process.env.TABLE_PREFIX = 'bench-register-';
  try {
    await createTables();
    await seedDevRealm();
    const growthAuth = await iagoAuth();
    let started = performance.now();
    await addHistory(HISTORY_MESSAGES);
    console.log(
      `\nGrowth (own tables): ${HISTORY_MESSAGES} read messages added to Iago's history in ${((performance.now() - started) / 1000).toFixed(1)} s; then the organization grows.\n`,
    );
    const growth: [string, Cost & { p50: number; p99: number }][] = [];
    let users = 0;
    for (const scale of SCALES) {
      started = performance.now();
      await growOrganization(users, scale);
      users = scale;
      console.log(`  +${scale} users and channels in total (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      growth.push(await row(`${scale} extra users + channels: everything`, growthAuth, null));
      growth.push(await row(`${scale} extra users + channels: all but realm_user/subscription/stream`, growthAuth, ALL_BUT_DIRECTORY));
    }
    console.log('');
    printTable(growth);
    console.log(`\nPer section, with ${users} extra users and channels and the ${HISTORY_MESSAGES}-message history:\n`);
    const sections: [string, Cost & { p50: number; p99: number }][] = [];
    for (const [label, fetch] of SECTIONS.slice(1)) sections.push(await row(label, growthAuth, fetch));
    printTable(sections);
    // Conclusions from the growth figures: what grows with the organization and what stays flat.
    console.log('');
    for (const [name, index] of [
      ['everything', 0],
      ['all but the directory', 1],
    ] as const) {
      console.log(
        scalingStatement(
          `register, ${name}`,
          SCALES.map((size, i) => ({ size, cost: growth[2 * i + index][1] })),
        ),
      );
    }
  } finally {
    process.env.TABLE_PREFIX = prefix;
  }
};
