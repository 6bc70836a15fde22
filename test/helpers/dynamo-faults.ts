// Fault injection at the DynamoDB boundary: a small HTTP proxy in front of DynamoDB Local that the
// service's own client talks to (DYNAMODB_ENDPOINT points at it while it is in use). Every request
// is forwarded unchanged unless a rule picks it; a picked request gets its fault:
//
// - `throttle`: 400 ProvisionedThroughputExceededException, not forwarded (the SDK backs off and retries);
// - `error500`: 500 InternalServerError, not forwarded (the SDK retries);
// - `applyThenDrop`: forwarded and applied, then the answer is thrown away and 500 returned instead
//   (the SDK retries a request DynamoDB has already applied: the "lost answer");
// - `hang`: no answer at all until the client gives up (its request timeout) or the proxy stops.
//
// Not a mock: DynamoDB Local evaluates every forwarded request, conditions included.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeClients } from '../../lib/store/client';
import { asyncListener, readBody } from '../../scripts/http-body';

export type Fault = 'throttle' | 'error500' | 'applyThenDrop' | 'hang';

/** What a rule sees of a request: the operation (`PutItem`), the parsed JSON body and the SDK's attempt number (1 first). */
export type FaultRequest = { op: string; body: Record<string, any>; attempt: number };

export type FaultRule = {
  fault: Fault;
  /** The operation it applies to (`PutItem`, `TransactWriteItems`, …); any when absent. */
  op?: string;
  /** A further test on the request (a table, a key, a condition). */
  when?: (req: FaultRequest) => boolean;
  /** How many matching requests it hits (1 by default; Infinity for every one). */
  times?: number;
  /** Matching requests to let through before it starts hitting (0 by default). */
  skip?: number;
};

/** One request as the proxy saw it, and the fault it got (none: forwarded and answered). */
export type FaultLogEntry = FaultRequest & { fault?: Fault };

const ERROR_BODIES = {
  throttle: {
    status: 400,
    body: {
      __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    },
  },
  error500: { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' } },
};

const forward = (
  target: URL,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, any>; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const out = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (res) => {
        readBody(res).then((body) => resolve({ status: res.statusCode ?? 500, headers: res.headers, body }), reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });

export type DynamoFaults = {
  /** Adds a rule (rules are tried in the order added; the first that matches and has hits left wins). */
  inject: (rule: FaultRule) => void;
  /** Removes every rule: requests go through unharmed again. */
  clear: () => void;
  /** Every request seen since the proxy started (or the log was cleared). */
  log: FaultLogEntry[];
  /** The faults dealt so far. */
  dealt: () => FaultLogEntry[];
  /** Stops the proxy (answering hung requests with nothing) and points the service back at DynamoDB Local. */
  stop: () => Promise<void>;
};

/**
 * Starts the proxy and points the service's DynamoDB client at it (DYNAMODB_ENDPOINT) until stop().
 * Use it around the part of a test that runs under faults, so setup and checks go straight to DynamoDB Local.
 */
export const startDynamoFaults = async (): Promise<DynamoFaults> => {
  const original = process.env.DYNAMODB_ENDPOINT;
  if (!original) throw new Error('DYNAMODB_ENDPOINT is not set');
  const target = new URL(original);
  const rules: (FaultRule & { hits: number; seen: number })[] = [];
  const log: FaultLogEntry[] = [];
  const hung = new Set<ServerResponse>();

  const pick = (req: FaultRequest): Fault | undefined => {
    for (const rule of rules) {
      if (rule.op !== undefined && rule.op !== req.op) continue;
      if (rule.when && !rule.when(req)) continue;
      rule.seen += 1;
      if (rule.seen <= (rule.skip ?? 0)) continue;
      if (rule.hits >= (rule.times ?? 1)) continue;
      rule.hits += 1;
      return rule.fault;
    }
    return undefined;
  };

  const server = createServer(
    asyncListener(async (req, res) => {
      const raw = await readBody(req);
      const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(raw.toString('utf8') || '{}');
      } catch {
        // Not JSON: forwarded as it is.
      }
      const attempt = Number(/attempt=(\d+)/.exec(String(req.headers['amz-sdk-request'] ?? ''))?.[1] ?? 1);
      const fault = pick({ op, body, attempt });
      log.push({ op, body, attempt, ...(fault ? { fault } : {}) });
      const answer = (status: number, payload: unknown) =>
        res
          .writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'fault-injected' })
          .end(JSON.stringify(payload));
      if (fault === 'hang') {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      if (fault === 'throttle' || fault === 'error500') {
        answer(ERROR_BODIES[fault].status, ERROR_BODIES[fault].body);
        return;
      }
      try {
        const out = await forward(target, req, raw);
        if (fault === 'applyThenDrop') {
          answer(ERROR_BODIES.error500.status, ERROR_BODIES.error500.body);
          return;
        }
        res.writeHead(out.status, out.headers).end(out.body);
      } catch {
        res.destroy();
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closeClients();
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${port}`;

  return {
    inject: (rule) => rules.push({ ...rule, hits: 0, seen: 0 }),
    clear: () => {
      rules.length = 0;
    },
    log,
    dealt: () => log.filter((e) => e.fault !== undefined),
    stop: async () => {
      rules.length = 0;
      for (const res of hung) res.destroy();
      closeClients();
      process.env.DYNAMODB_ENDPOINT = original;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
