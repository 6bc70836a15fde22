// The tests' tables on the run's shared DynamoDB Local (global-setup.ts): every handler test file
// (per-file-tables.ts) and every end-to-end file (e2e.ts) starts from fresh ones with the
// development data set, under a prefix of its own. Refuses anything but a local endpoint.
import { DeleteTableCommand, waitUntilTableNotExists } from '@aws-sdk/client-dynamodb';
import { closeClients, documentClient } from '../../lib/store/client';
import { createTables } from '../../scripts/local-dynamo';
import { seedDevRealm } from '../../scripts/seed';

const TABLES = ['main', 'events'] as const;

/** Deletes the tables under `tablePrefix`, if they exist, and waits until they are gone. */
export const dropTables = async (tablePrefix: string): Promise<void> => {
  const client = documentClient();
  await Promise.all(
    TABLES.map(async (t) => {
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
 * that reads them.
 */
export const freshTables = async (tablePrefix: string, opts: { streams?: boolean } = {}): Promise<void> => {
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? '';
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint))
    throw new Error(`tests refuse a non-local DynamoDB endpoint: ${endpoint}`);
  process.env.TABLE_PREFIX = tablePrefix;
  // The file's own search tables, in a schema named after its tables (created at its first search).
  process.env.SEARCH_SCHEMA = `s_${tablePrefix.replace(/[^a-z0-9]/g, '')}`;
  delete process.env.TABLE_MAIN;
  delete process.env.TABLE_EVENTS;
  closeClients();
  await dropTables(tablePrefix);
  await createTables({ streams: opts.streams ?? false });
  await seedDevRealm({ fresh: true });
};
