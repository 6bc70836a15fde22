// Benchmark of presence against DynamoDB Local: p50/p99 latency of POST /users/me/presence through
// its handler (authentication included), and DynamoDB requests and capacity units per call, at
// organizations of 10, 1,000 and 10,000 users. It grows the development organization with
// generated members (scripts/seed.ts, extra users with presence rows spread over 20 days) in tables
// of its own, and moves the service clock instead of waiting for the 60-second ping interval.
//
// Run with `npm run bench presence`, or alone: `npx tsx scripts/bench-presence.ts [sizes...]`.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as updatePresence } from '../functions/presence/update';
import { advanceClock } from '../lib/clock';
import type { HttpResponse } from '../lib/http/response';
import { closeClients, documentClient, tableName } from '../lib/store/client';
import * as presenceStore from '../lib/store/presence';
import * as usersStore from '../lib/store/users';
import { measure, printTable, scalingStatement, type Cost } from './bench-util';
import { createTables, startDynamoLocal } from './local-dynamo';
import { seedDevRealm } from './seed';

const REALM = 2;
/** Accounts of the development organization before extra users: 10 active humans, 2 bots, 1 deactivated. */
const DEV_ACCOUNTS = 13;
const DEV_HUMANS_SHARING_PRESENCE = [6, 7, 8, 9, 10, 11, 12, 13, 15];
const EXTRA_USER_FIRST_ID = 100000;
/** Distinct users taking part in each measured round (fewer in the 10-user organization). */
const ACTORS = 100;
const DEFAULT_SIZES = [10, 1000, 10000];

type Actor = { id: number; authorization: string };
type Row = [string, Cost & { p50: number; p99: number }];
const OPERATIONS = [
  '(a) ping_only, row rewritten',
  '(a) ping_only, nothing to rewrite',
  '(a) ping_only, comes online (+event)',
  '(b) incremental poll, no change',
  '(c) full fetch',
] as const;
type Measured = { operation: (typeof OPERATIONS)[number]; size: number; cost: Cost };

const basicAuth = (email: string, apiKey: string): string => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

const presenceRequest = (authorization: string, params: Record<string, string>): APIGatewayProxyEventV2 => {
  const path = '/api/v1/users/me/presence';
  return {
    version: '2.0',
    routeKey: 'POST /users/me/presence',
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'localhost:3000', authorization, 'content-type': 'application/x-www-form-urlencoded' },
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: 'POST /users/me/presence',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    body: new URLSearchParams(params).toString(),
    isBase64Encoded: false,
  };
};

/** One POST /users/me/presence; throws unless it succeeded. Returns the decoded body. */
const post = async (actor: Actor, params: Record<string, string>): Promise<Record<string, unknown>> => {
  const response: HttpResponse = await updatePresence(presenceRequest(actor.authorization, params));
  const body = JSON.parse(response.body) as Record<string, unknown>;
  if (response.statusCode !== 200) throw new Error(`presence request failed: ${response.statusCode} ${response.body}`);
  return body;
};

const actorsOf = async (count: number, size: number): Promise<Actor[]> => {
  const extras = Math.max(0, size - DEV_ACCOUNTS);
  const ids = [...DEV_HUMANS_SHARING_PRESENCE, ...Array.from({ length: Math.min(extras, count) }, (_, i) => EXTRA_USER_FIRST_ID + i)].slice(
    0,
    count,
  );
  return Promise.all(
    ids.map(async (id) => {
      const user = await usersStore.get(REALM, id);
      if (!user) throw new Error(`bench user ${id} is missing`);
      return { id, authorization: basicAuth(user.email, user.apiKey) };
    }),
  );
};

/** Runs one call per actor per round, moving the clock by `advanceSecs` before each round. */
const rounds = async (actors: Actor[], count: number, advanceSecs: number, fn: (actor: Actor) => Promise<unknown>) => {
  const perRound = actors.length;
  return measure(count, async (i) => {
    if (i % perRound === 0 && advanceSecs > 0) advanceClock(advanceSecs * 1000);
    await fn(actors[i % perRound]);
  });
};

const benchSize = async (size: number, samples: number): Promise<{ rows: Row[]; measured: Measured[]; window: number }> => {
  const actors = await actorsOf(ACTORS, size);
  // Whole rounds only, so that every actor's row has the same age when a phase starts.
  const n = Math.ceil(samples / actors.length) * actors.length;
  const ping = { status: 'active', ping_only: 'true' };
  // Warm-up: every actor comes online (and the handler's modules load).
  for (const actor of actors) await post(actor, ping);

  // A user coming back online after an hour: the row is rewritten and a presence event is sent.
  const comesOnline = await rounds(actors, n, 3600, (a) => post(a, ping));
  // The steady state: a ping a minute later rewrites the row (more than 55 s old), no event.
  const rewrite = await rounds(actors, n, 60, (a) => post(a, ping));
  // A second client of the same user within the minute: nothing to write.
  const unchanged = await rounds(actors, n, 0, (a) => post(a, ping));
  // (b) An incremental poll when nothing changed since the caller's last_update_id.
  const lastUpdateId = String(await presenceStore.getSequence(REALM));
  const poll = await rounds(actors, n, 0, async (a) => {
    const body = await post(a, { status: 'active', last_update_id: lastUpdateId });
    if (Object.keys(body.presences as object).length !== 0) throw new Error('the no-change poll returned presence data');
  });
  // (c) A full fetch: every row connected within the default 14 days.
  let window = 0;
  const fullSamples = size >= 10000 ? 30 : size >= 1000 ? 60 : 200;
  const full = await rounds(actors, fullSamples, 0, async (a) => {
    const body = await post(a, { status: 'active', last_update_id: '-1' });
    window = Object.keys(body.presences as object).length;
  });
  const label = (what: string) => `${what} @ ${size.toLocaleString('en-US')} users`;
  const costs = [rewrite, unchanged, comesOnline, poll, full];
  return {
    window,
    measured: OPERATIONS.map((operation, i) => ({ operation, size, cost: costs[i] })),
    rows: [
      [label('(a) ping_only, row rewritten'), rewrite],
      [label('(a) ping_only, nothing to rewrite'), unchanged],
      [label('(a) ping_only, comes online (+event)'), comesOnline],
      [label('(b) incremental poll, no change'), poll],
      [label(`(c) full fetch (${window} rows in window)`), full],
    ],
  };
};

/**
 * The presence section of `npm run bench`: runs in tables of its own (dropped afterwards) on the
 * DynamoDB Local the caller started, so growing the organization does not affect other sections.
 */
export const benchPresence = async (sizes: number[] = DEFAULT_SIZES, samples = 200): Promise<void> => {
  const previousPrefix = process.env.TABLE_PREFIX;
  process.env.TABLE_PREFIX = 'bench-presence-';
  const log = process.env.BENCH_VERBOSE ? (line: string) => console.log(line) : undefined;
  try {
    await createTables();
    console.log('\n## Presence: POST /users/me/presence through the handler (authentication included)');
    const rows: Row[] = [];
    const measured: Measured[] = [];
    for (const size of [...sizes].sort((a, b) => a - b)) {
      const started = Date.now();
      await seedDevRealm({ extraUsers: Math.max(0, size - DEV_ACCOUNTS), log });
      console.log(`- organization of ${size.toLocaleString('en-US')} users seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const result = await benchSize(size, samples);
      rows.push(...result.rows);
      measured.push(...result.measured);
    }
    printTable(rows);
    // Conclusions from the figures above: each operation's cost at the smallest and largest size.
    for (const operation of OPERATIONS) {
      const bySize = measured.filter((m) => m.operation === operation).map(({ size, cost }) => ({ size, cost }));
      console.log(scalingStatement(operation, bySize));
    }
  } finally {
    await Promise.all(
      (['main', 'events'] as const).map((t) =>
        documentClient()
          .send(new DeleteTableCommand({ TableName: tableName(t) }))
          .catch(() => undefined),
      ),
    );
    if (previousPrefix === undefined) delete process.env.TABLE_PREFIX;
    else process.env.TABLE_PREFIX = previousPrefix;
  }
};

if (require.main === module) {
  (async () => {
    process.env.REQUEST_LOG = 'off';
    process.env.DEVELOPMENT_MODE = 'on';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    const sizes = process.argv
      .slice(2)
      .map(Number)
      .filter((n) => n > 0);
    const dynamo = await startDynamoLocal();
    try {
      await benchPresence(sizes.length > 0 ? sizes : DEFAULT_SIZES);
    } finally {
      closeClients();
      await dynamo.stop();
    }
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
