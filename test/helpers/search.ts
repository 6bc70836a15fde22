// The search index in handler tests: the file's main table gets its stream, the index starts from a
// reindex of the seeded organizations, and `syncSearchIndex()` hands what the stream holds since to
// the searchIndex function, as Lambda's event source does deployed (and scripts/local-stream.ts
// under npm start), through the same handler. The file's schema is dropped afterwards.
import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { handler as searchIndexHandler } from '../../functions/jobs/search-index';
import { doReindexRealm, type IndexStreamRecord } from '../../lib/actions/messages/search-index';
import { closeSearchClient, runSql, SearchUnavailableError } from '../../lib/search/client';
import { documentClient, tableName } from '../../lib/store/client';
import { listAllForOperator } from '../../lib/store/realms';
import { mainStreamArn, readStream, type ShardPosition } from '../../lib/store/table-stream';
import { STREAM_FILTERS } from '../../scripts/local-stream';

/** Waits until the search database answers (the tests' PGlite starts at the first statement: seconds). */
export const waitForSearchDatabase = async (timeoutMs = 120_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await runSql('SELECT 1');
      return;
    } catch (error) {
      if (!(error instanceof SearchUnavailableError) || Date.now() > deadline) throw error;
    }
  }
};

/** Makes the local search database answer as a resuming one for `ms` (scripts/local-search.ts). */
export const pauseSearchDatabase = async (ms: number): Promise<void> => {
  await fetch(`${process.env.SEARCH_ENDPOINT}/__pause`, { method: 'POST', body: JSON.stringify({ ms }) });
};

let arn: string | undefined;
let positions: ShardPosition[] = [];

/** Applies the main table's new stream records to the index through the searchIndex function; how many records it handed over. */
export const syncSearchIndex = async (): Promise<number> => {
  const { records, next } = await readStream(arn!, positions);
  positions = next;
  const batch = records.filter(STREAM_FILTERS.searchIndex);
  await searchIndexHandler({ Records: batch as IndexStreamRecord[] });
  return batch.length;
};

/** Gives this file's tables a stream and its search schema the seeded messages; registers the cleanup. */
export const useSearchIndex = (): void => {
  beforeAll(async () => {
    await documentClient().send(
      new UpdateTableCommand({ TableName: tableName('main'), StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
    );
    arn = await mainStreamArn();
    positions = (await readStream(arn!, 'all')).next;
    await waitForSearchDatabase();
    for (const realm of await listAllForOperator()) await doReindexRealm(realm.id);
  }, 150_000);
  afterAll(async () => {
    await runSql('DROP SCHEMA IF EXISTS {schema} CASCADE').catch(() => undefined);
    closeSearchClient();
  });
};
