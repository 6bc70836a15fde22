// `npm run bench search`: the search index at scale, on the local PGlite stand-in through the Data
// API path (lib/search): seeds SEARCH_BENCH_MESSAGES messages (default 1,000,000) of one
// organization in 20 channels straight into the index (through writeSearchRows, the stream
// consumer's write), then times searches for a rare word, a common word, a phrase and a word
// within one channel (one page of 100 ids each, as GET /messages asks), the first statement of a
// cold start, and prints the index size and the monthly dollars at AWS list prices.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchScope } from '../lib/models/search-narrow';
import { closeSearchClient, runSql } from '../lib/search/client';
import { searchRowOf, writeSearchRows } from '../lib/search/index-writes';
import { searchMessageIds } from '../lib/search/query';
import { startLocalSearch } from './local-search';

const REALM = 1;
const CHANNELS = 20;
/** Words messages are made of: a few common ones, many rarer ones (a Zipf-like draw). */
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const COMMON = ['project', 'meeting', 'release', 'customer', 'review'];

let seed = 42;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const word = (): string =>
  random() < 0.3 ? COMMON[Math.floor(random() * COMMON.length)] : VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)];

const contentOf = (id: number): string => {
  const words = Array.from({ length: 8 + Math.floor(random() * 20) }, word);
  if (id % 100_000 === 7) words.push('zebrafish');
  if (id % 100 === 3) words.push('deploy the service');
  return words.join(' ');
};

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
    for (let from = 1; from <= total; from += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - from + 1) }, (_, k) => {
        const id = from + k;
        const content = contentOf(id);
        return searchRowOf(
          {
            realmId: REALM,
            id,
            senderId: 1 + (id % 50),
            streamId: 1 + (id % CHANNELS),
            dmUserIds: [],
            topic: `topic ${id % 300}`,
            content,
            renderedContent: `<p>${content}</p>`,
          },
          '0',
        );
      });
      await writeSearchRows(rows);
      if (from % 100_000 === 1 && from > 1) console.log(`  seeded ${(from - 1).toLocaleString('en-US')} messages`);
    }
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
      `\n## Search (PGlite through the Data API stand-in), ${total.toLocaleString('en-US')} messages, seeded in ${seededS.toFixed(0)} s`,
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
    await search.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
