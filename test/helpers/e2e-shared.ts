// The serverless-offline of a jest worker, shared by the end-to-end files that worker runs one
// after the other (starting one costs about 20 s; a worker runs many files). The first such file
// of a worker starts it on that worker's own tables and registers it in a file named after the run
// and the worker's process; later files find it there. Each file starts from fresh tables with the
// development data set (resetWorkerTables), so files stay isolated. globalTeardown stops them all;
// a watchdog stops one whose worker dies first.
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive as alive, startOffline, stopProcessGroupOf } from '../../scripts/local-service';

type Registered = { pid: number; port: number; tablePrefix: string; logFile: string };

const runId = (): string => process.env.CHAT_TEST_RUN ?? 'solo';
export const registryPrefix = (): string => `chat-e2e-${runId()}-`;
const registryFile = (): string => join(tmpdir(), `${registryPrefix()}${process.pid}.json`);

/** This worker's serverless-offline, started on first use. */
export const workerOffline = async (env: Record<string, string> = {}): Promise<Registered> => {
  const file = registryFile();
  if (existsSync(file)) {
    const found = JSON.parse(readFileSync(file, 'utf8')) as Registered;
    if (alive(found.pid)) return found;
  }
  const tablePrefix = `e2e${process.pid}-`;
  const logFile = join(tmpdir(), `${registryPrefix()}${process.pid}.log`);
  const fd = openSync(logFile, 'a');
  try {
    const { child, port } = await startOffline({
      dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT!,
      tables: { main: `${tablePrefix}main`, events: `${tablePrefix}events` },
      env,
      outputFd: fd,
      log: (line) => appendFileSync(logFile, `${line}\n`),
    });
    // It outlives this test file (the next file of the worker uses it) and must not keep a
    // single-process run alive: globalTeardown stops it.
    child.unref();
    const registered: Registered = { pid: child.pid!, port, tablePrefix, logFile };
    writeFileSync(file, JSON.stringify(registered));
    return registered;
  } finally {
    closeSync(fd);
  }
};

/** The lines serverless-offline printed to `logFile` since `offset`. */
export const logLinesSince = (logFile: string, offset: number): string[] =>
  existsSync(logFile)
    ? readFileSync(logFile)
        .subarray(offset)
        .toString()
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];

/** Stops every worker's service of this run and removes their files (globalTeardown). */
export const stopSharedServices = async (): Promise<void> => {
  const files = readdirSync(tmpdir()).filter((f) => f.startsWith(registryPrefix()));
  await Promise.all(
    files
      .filter((f) => f.endsWith('.json'))
      .map(async (f) => {
        const { pid } = JSON.parse(readFileSync(join(tmpdir(), f), 'utf8')) as Registered;
        if (!alive(pid)) return;
        // Not a child of this process: its end shows only as the pid going away.
        const exited = new Promise<void>((resolve) => {
          const timer = setInterval(() => {
            if (alive(pid)) return;
            clearInterval(timer);
            resolve();
          }, 100);
        });
        await stopProcessGroupOf(pid, exited);
      }),
  );
  for (const f of files) rmSync(join(tmpdir(), f), { force: true });
};
