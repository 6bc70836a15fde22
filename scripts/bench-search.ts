// `npm run bench search`: the search index at scale, on the local PGlite stand-in through the Data
// API path (lib/search): seeds SEARCH_BENCH_MESSAGES messages (default 1,000,000) of one
// organization in 20 channels straight into the index (generated inside PostgreSQL, the full-text
// index built after the rows, as a first reindex of a large organization would), then times searches for a rare word, a common word, a phrase and a word
// within one channel (one page of 100 ids each, as GET /messages asks), the first statement of a
// cold start, and prints the index size and the monthly dollars at AWS list prices.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchScope } from '../lib/models/search-narrow';
import { closeSearchClient, runSql } from '../lib/search/client';
import { searchMessageIds } from '../lib/search/query';
import { schemaStatements } from '../lib/search/sql';
import { startLocalSearch } from './local-search';

const REALM = 1;
const CHANNELS = 20;
/**
 * Seeds messages `from`..`to` in one statement, generated inside PostgreSQL (no rows cross the
 * Data API): 8–27 words each, 30% drawn from five common words and the rest from 5,000 rarer ones
 * (a Zipf-like draw); one message in 100,000 holds "zebrafish", one in 100 "deploy the service".
 * The rows are the stream consumer's (lib/search/sql.ts), their tsvector generated as always.
 */
const SEED_ROWS = `
INSERT INTO {schema}.messages (realm_id, id, version, channel_id, sender_id, topic, content, rendered)
SELECT :realm, g, 0, 1 + g % :channels, 1 + g % 50, 'topic ' || (g % 300), c.content, '<p>' || c.content || '</p>'
FROM generate_series(:from::bigint, :to::bigint) AS g
CROSS JOIN LATERAL (
  SELECT concat_ws(' ', string_agg(
      CASE WHEN random() < 0.3 THEN (ARRAY['project', 'meeting', 'release', 'customer', 'review'])[1 + floor(random() * 5)::int]
      ELSE 'w' || to_hex(floor(5000 * random() ^ 3)::int) || 'x' END, ' '),
    CASE WHEN g % 100000 = 7 THEN 'zebrafish' END,
    CASE WHEN g % 100 = 3 THEN 'deploy the service' END) AS content
  FROM generate_series(1, 8 + (g * 7919) % 20) AS w
) AS c`;

/** Rows per seeding statement. */
const SEED_BATCH = 50_000;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const time = async (runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> => {
  const ms: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
};

/** AWS list prices, us-east-1 (2026): Aurora Serverless v2, Aurora standard storage and I/O, the Data API. */
const PRICES = { acuHour: 0.12, storageGbMonth: 0.1, ioPerMillion: 0.2, dataApiPerMillion: 0.35 };

export const benchSearch = async (): Promise<void> => {
  const total = Number(process.env.SEARCH_BENCH_MESSAGES ?? 1_000_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  const cold = Date.now();
  const search = await startLocalSearch({ dataDir });
  process.env.SEARCH_ENDPOINT = search.endpoint;
  process.env.SEARCH_SCHEMA = 'bench';
  try {
    await search.ready;
    await runSql('SELECT 1');
    const coldMs = Date.now() - cold;
    const seeding = Date.now();
    // As a bulk load does: the full-text index is built once after the rows, not row by row.
    await runSql('DROP INDEX IF EXISTS {schema}.messages_tsvector');
    await runSql('SELECT setseed(0.42)');
    for (let from = 1; from <= total; from += SEED_BATCH) {
      await runSql(SEED_ROWS, { realm: REALM, channels: CHANNELS, from, to: Math.min(total, from + SEED_BATCH - 1) });
      if ((from - 1 + SEED_BATCH) % 200_000 === 0) console.log(`  seeded ${(from - 1 + SEED_BATCH).toLocaleString('en-US')} messages`);
    }
    const indexing = Date.now();
    await runSql("SET maintenance_work_mem = '256MB'");
    await runSql(schemaStatements.find((s) => s.includes('messages_tsvector'))!);
    const indexedS = (Date.now() - indexing) / 1000;
    await runSql('ANALYZE {schema}.messages');
    const seededS = (Date.now() - seeding) / 1000;
    const all: SearchScope = { kind: 'received', userId: 1, channelIds: Array.from({ length: CHANNELS }, (_, i) => i + 1), dms: true };
    const page = { direction: 'older' as const, from: 10 ** 16, inclusive: true, limit: 100 };
    const cases: [string, () => Promise<unknown>][] = [
      ['rare word (zebrafish)', () => searchMessageIds(REALM, { query: 'zebrafish', phrases: [] }, all, {}, page)],
      ['common word (project)', () => searchMessageIds(REALM, { query: 'project', phrases: [] }, all, {}, page)],
      [
        'phrase ("deploy the service")',
        () => searchMessageIds(REALM, { query: '"deploy the service"', phrases: ['deploy the service'] }, all, {}, page),
      ],
      [
        'word in one channel (review)',
        () => searchMessageIds(REALM, { query: 'review', phrases: [] }, { kind: 'channels', channelIds: [7] }, {}, page),
      ],
    ];
    const [size] = await runSql<{ rows: number; bytes: number }>(
      `SELECT count(*)::bigint AS "rows", pg_total_relation_size('{schema}.messages')::bigint AS "bytes" FROM {schema}.messages`,
    );
    const gb = Number(size.bytes) / 1e9;
    console.log(
      `\n## Search (PGlite through the Data API stand-in), ${total.toLocaleString('en-US')} messages, seeded in ${seededS.toFixed(0)} s (of which building the full-text index ${indexedS.toFixed(0)} s)`,
    );
    console.log(`cold start to the first answered statement: ${(coldMs / 1000).toFixed(1)} s`);
    console.log('| search (one page of 100 ids) | p50 ms | p99 ms |\n|---|---|---|');
    for (const [name, run] of cases) {
      await run();
      const { p50, p99 } = await time(30, run);
      console.log(`| ${name} | ${p50.toFixed(1)} | ${p99.toFixed(1)} |`);
    }
    console.log(
      `index: ${Number(size.rows).toLocaleString('en-US')} rows, ${(Number(size.bytes) / 2 ** 20).toFixed(0)} MiB (table and indexes)`,
    );
    // Idle: paused at 0 ACU, storage only. Busy: 50,000 searches a month during 22 working days of
    // 9 hours keep the cluster awake those hours at its 0.5-ACU floor (it pauses 5 idle minutes
    // after the day's last search); each search is 2 Data API calls (ids, highlights).
    const storage = gb * PRICES.storageGbMonth;
    const awake = 22 * 9 * 0.5 * PRICES.acuHour;
    const calls = ((50_000 * 2) / 1e6) * (PRICES.dataApiPerMillion + PRICES.ioPerMillion);
    console.log(`idle organization: $${storage.toFixed(2)} a month (storage only; 0 ACU while paused)`);
    console.log(
      `50,000 searches a month: $${(storage + awake + calls).toFixed(2)} (awake $${awake.toFixed(2)}, calls $${calls.toFixed(2)}, storage $${storage.toFixed(2)})`,
    );
  } finally {
    closeSearchClient();
    delete process.env.SEARCH_ENDPOINT;
    delete process.env.SEARCH_SCHEMA;
    await search.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
