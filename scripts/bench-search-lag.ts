// `npm run bench search-lag`: how long after a send a message can be found, under `npm start`'s
// stack (serverless-offline, the local stream poller reading the main table's stream twice a
// second, the searchIndex function, PGlite behind the Data API stand-in). Each message is sent
// through POST /api/v1/messages; the lag runs from its answer to its row being in the index,
// which this process checks every 20 ms through the same Data API path as a search.
import { percentile } from './bench-util';
import { startLocalService } from './local-service';
import { closeSearchClient, runSql } from '../lib/search/client';
import * as usersStore from '../lib/store/users';

const SENDS = 60;
const CHECK_EVERY_MS = 20;
/** A message that is not found within this long counts as lost. */
const GIVE_UP_MS = 30_000;
const GOAL_P99_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the message's row matches its word in the index; the ms it took, or undefined after GIVE_UP_MS. */
const untilSearchable = async (realmId: number, id: number, word: string): Promise<number | undefined> => {
  const start = performance.now();
  while (performance.now() - start < GIVE_UP_MS) {
    const rows = await runSql(
      "SELECT 1 FROM {schema}.messages WHERE realm_id = :realm AND id = :id AND search_tsvector @@ plainto_tsquery('english'::regconfig, :word)",
      { realm: realmId, id, word },
    );
    if (rows.length > 0) return performance.now() - start;
    await sleep(CHECK_EVERY_MS);
  }
  return undefined;
};

export const benchSearchLag = async (): Promise<void> => {
  console.log(`\n## Search: indexing lag from a send to a searchable message (npm start's stack, ${SENDS} sends)\n`);
  const saved = { endpoint: process.env.SEARCH_ENDPOINT, schema: process.env.SEARCH_SCHEMA };
  delete process.env.SEARCH_ENDPOINT;
  delete process.env.SEARCH_SCHEMA;
  closeSearchClient();
  const service = await startLocalService({
    port: 0,
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT,
    env: { REQUEST_LOG: 'off' },
    log: () => undefined,
    offlineLog: () => undefined,
  });
  try {
    const [iago] = await usersStore.listByEmail('iago@zulip.com');
    const authorization = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
    const send = async (i: number): Promise<{ id: number; word: string }> => {
      const word = `lagprobe${i}${Date.now().toString(36)}`;
      const response = await fetch(`${service.baseUrl}/messages`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'search lag', content: `probe ${word}` }),
      });
      const body = (await response.json()) as { result: string; id?: number; msg?: string };
      if (body.result !== 'success' || body.id === undefined) throw new Error(`POST /messages: ${response.status} ${body.msg}`);
      return { id: body.id, word };
    };
    // Warm-up: the functions load on first use, and the index is built once PGlite is up.
    const warm = await send(-1);
    if ((await untilSearchable(iago.realmId, warm.id, warm.word)) === undefined) throw new Error('the warm-up message was never indexed');
    const lags: number[] = [];
    let lost = 0;
    for (let i = 0; i < SENDS; i += 1) {
      const { id, word } = await send(i);
      const ms = await untilSearchable(iago.realmId, id, word);
      if (ms === undefined) lost += 1;
      else lags.push(ms);
      // Sends spread over the stream poller's rounds rather than in step with them.
      await sleep(97);
    }
    const p99 = percentile(lags, 99);
    console.log(
      `send answered → searchable: p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms` +
        ` (goal p99 ≤ ${GOAL_P99_MS.toLocaleString('en-US')} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'missed'}); ${lost} of ${SENDS} not indexed within ${GIVE_UP_MS / 1000} s`,
    );
  } finally {
    closeSearchClient();
    await service.stop();
    Object.assign(process.env, {
      ...(saved.endpoint ? { SEARCH_ENDPOINT: saved.endpoint } : {}),
      ...(saved.schema ? { SEARCH_SCHEMA: saved.schema } : {}),
    });
  }
};
