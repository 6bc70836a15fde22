// The local stand-in for the search database: PGlite (PostgreSQL compiled to WebAssembly) behind
// the RDS Data API's ExecuteStatement, so that lib/search/client.ts talks to it exactly as to
// Aurora (one code path, as DynamoDB Local stands in for DynamoDB). `npm start` keeps its data in
// a folder between runs; the tests keep it in memory, one schema per test file. Until PGlite is
// ready, and while a test has paused it, it answers DatabaseResumingException, as a paused Aurora
// cluster does while it resumes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';

export type LocalSearch = {
  endpoint: string;
  /** Resolves once PostgreSQL is up, with how long its start took (ms). */
  ready: Promise<number>;
  stop: () => Promise<void>;
};

type DataApiValue = { stringValue?: string; longValue?: number; doubleValue?: number; booleanValue?: boolean; isNull?: boolean };
type ExecuteInput = { sql?: string; parameters?: { name: string; value: DataApiValue }[] };

const valueOf = (v: DataApiValue): unknown => (v.isNull ? null : (v.stringValue ?? v.longValue ?? v.doubleValue ?? v.booleanValue ?? null));

/** The Data API's `:name` parameters as PostgreSQL's `$n` (a `::cast` is left alone). */
export const positional = (sql: string, parameters: { name: string; value: DataApiValue }[]): { text: string; values: unknown[] } => {
  const order = new Map<string, number>();
  const byName = new Map(parameters.map((p) => [p.name, p.value]));
  const text = sql.replace(/(?<![:\w]):([A-Za-z_]\w*)/g, (whole, name: string) => {
    if (!byName.has(name)) return whole;
    if (!order.has(name)) order.set(name, order.size + 1);
    return `$${order.get(name)}`;
  });
  return { text, values: [...order.keys()].map((name) => valueOf(byName.get(name)!)) };
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });

const send = (res: ServerResponse, status: number, body: unknown, errorType?: string): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
  res.end(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
};

/**
 * Starts PGlite (in `dataDir`, or in memory) and the Data API front on a free port (or `port`).
 * `POST /__pause {"ms"}` (tests only) makes it answer as a resuming database for that long.
 */
export const startLocalSearch = async (opts: { dataDir?: string; port?: number; lazy?: boolean } = {}): Promise<LocalSearch> => {
  let db: PGlite | undefined;
  let up = false;
  let pausedUntil = 0;
  let started: (ms: number) => void = () => undefined;
  const ready = new Promise<number>((resolve) => (started = resolve));
  // PostgreSQL starts at once, or (`lazy`: the tests) at the first statement, as a paused cluster resumes.
  const boot = (): void => {
    if (db) return;
    const at = Date.now();
    db = new PGlite(opts.dataDir);
    void db.waitReady.then(() => {
      up = true;
      started(Date.now() - at);
    });
  };
  if (!opts.lazy) boot();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (req.url === '/__pause') {
        pausedUntil = Date.now() + Number((JSON.parse(body) as { ms: number }).ms);
        return send(res, 200, {});
      }
      if (req.method !== 'POST' || req.url !== '/Execute') return send(res, 404, { message: 'Not found' }, 'NotFoundException');
      boot();
      if (!up || !db || Date.now() < pausedUntil)
        return send(
          res,
          400,
          { message: 'The database is resuming after being auto-paused. Wait a few seconds and try again.' },
          'DatabaseResumingException',
        );
      const input = JSON.parse(body) as ExecuteInput;
      const { text, values } = positional(input.sql ?? '', input.parameters ?? []);
      try {
        const result = await db.query<Record<string, unknown>>(text, values);
        send(res, 200, {
          formattedRecords: JSON.stringify(result.rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
          numberOfRecordsUpdated: result.affectedRows ?? 0,
        });
      } catch (error) {
        send(res, 400, { message: `ERROR: ${(error as Error).message}` }, 'BadRequestException');
      }
    })().catch((error: unknown) => send(res, 500, { message: String(error) }, 'InternalServerErrorException'));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ready,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      if (db) {
        await db.waitReady;
        await db.close();
      }
    },
  };
};
