// The tests' tables on the run's shared DynamoDB Local (global-setup.ts): every handler test file
// (per-file-tables.ts) and every end-to-end file (e2e.ts) starts from fresh ones with the
// development data set, under a prefix of its own. Refuses anything but a local endpoint.
import { DeleteTableCommand, waitUntilTableNotExists } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { config } from '../../lib/config';
import { closeClients, documentClient } from '../../lib/store/client';
import { createTables } from '../../scripts/local-dynamo';
import { seedDevRealm } from '../../scripts/seed';

const TABLES = ['main', 'events'] as const;

/** Deletes the tables under `tablePrefix` (or only those named), if they exist, and waits until they are gone. */
export const dropTables = async (tablePrefix: string, tables: readonly (typeof TABLES)[number][] = TABLES): Promise<void> => {
  const client = documentClient();
  await Promise.all(
    tables.map(async (t) => {
      const TableName = `${tablePrefix}${t}`;
      try {
        await client.send(new DeleteTableCommand({ TableName }));
      } catch {
        return; // not there
      }
      await waitUntilTableNotExists({ client: client as never, maxWaitTime: 30 }, { TableName });
    }),
  );
};

/**
 * Points this process at `tablePrefix` and gives it fresh tables with the development data set;
 * with `streams`, with the tables' streams (scripts/local-dynamo.ts createTables), for a file
 * that reads them. With `keepEvents`, the events table stays (created if missing): a long-lived
 * service on these tables (an e2e worker's serverless-offline) remembers readings of its event
 * streams' heads, and a recreated table would start those streams again below what it remembers,
 * so its polls would skip the new events as already read.
 */
export const freshTables = async (tablePrefix: string, opts: { streams?: boolean; keepEvents?: boolean } = {}): Promise<void> => {
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? '';
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint))
    throw new Error(`tests refuse a non-local DynamoDB endpoint: ${endpoint}`);
  process.env.TABLE_PREFIX = tablePrefix;
  // The file's own search tables, in a schema named after its tables (created at its first search).
  process.env.SEARCH_SCHEMA = `s_${tablePrefix.replace(/[^a-z0-9]/g, '')}`;
  delete process.env.TABLE_MAIN;
  delete process.env.TABLE_EVENTS;
  closeClients();
  await dropTables(tablePrefix, opts.keepEvents ? ['main'] : TABLES);
  await createTables({ streams: opts.streams ?? false });
  await seedDevRealm({ fresh: true });
};

/**
 * How old a worker's template may be before the next file seeds a new one. The development data
 * set's timestamps are relative to when it was seeded (messages sent 10 minutes ago, a user
 * connected 100 s ago, whom presence counts as online for 140 s), so a file sees them up to this
 * much older than a file that seeds its own would: no more than a slow file's own tests already
 * add, and short of every window the data set sits near.
 */
const TEMPLATE_MAX_AGE_MS = 30_000;
/** Every handler file's tables have this prefix; each file has its own database. */
const TEMPLATE_PREFIX = 't-';

type Template = { database: string; seededMs: number };

/** DynamoDB Local's file of the database of access key `database` (global-setup.ts starts it without -sharedDb). */
const databaseFile = (dir: string, database: string): string => join(dir, `${database}_${config.region()}.db`);

/**
 * Points this process at a database of its own on the run's DynamoDB Local, holding fresh tables
 * with the development data set: a copy of this worker's template, which is seeded again when it is
 * older than TEMPLATE_MAX_AGE_MS. Returns a function that removes the database. Without the run's
 * database folder (DYNAMODB_DB_DIR), seeds tables of its own under a prefix of its own.
 */
export const tablesFromTemplate = async (): Promise<() => Promise<void>> => {
  const dir = process.env.DYNAMODB_DB_DIR;
  const database = `f${randomBytes(6).toString('hex')}`;
  if (!dir) {
    await freshTables(`${database}-`);
    return () => dropTables(`${database}-`);
  }
  const use = (db: string) => {
    process.env.DYNAMODB_LOCAL_DATABASE = db;
    closeClients();
  };
  const stateFile = join(dir, `template-${process.env.JEST_WORKER_ID ?? '0'}.json`);
  let template = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Template) : undefined;
  if (!template || Date.now() - template.seededMs > TEMPLATE_MAX_AGE_MS) {
    if (template) rmSync(databaseFile(dir, template.database), { force: true });
    template = { database: `tpl${randomBytes(6).toString('hex')}`, seededMs: Date.now() };
    use(template.database);
    await freshTables(TEMPLATE_PREFIX);
    writeFileSync(stateFile, JSON.stringify(template));
  }
  copyFileSync(databaseFile(dir, template.database), databaseFile(dir, database));
  use(database);
  process.env.TABLE_PREFIX = TEMPLATE_PREFIX;
  process.env.SEARCH_SCHEMA = `s_${database}`;
  return async () => rmSync(databaseFile(dir, database), { force: true });
};
