// Lambda's asynchronous invocation on this machine, in front of serverless-offline's Lambda
// endpoint. serverless-offline runs an `Event` invocation without awaiting it: a job that fails
// becomes an unhandled rejection, which ends its whole process (every route then answered 502).
// So the handlers' LAMBDA_ENDPOINT is this server instead, which does what Lambda does with an
// asynchronous invocation:
//
// - answers 202 at once, with the invocation's request id;
// - runs the function through serverless-offline as a RequestResponse invocation (awaited there,
//   a failure comes back as the `X-Amz-Function-Error` answer), logs a failure with the request
//   id, and retries it twice (Lambda waits about 1 and 2 minutes; here RETRY_DELAYS_MS);
// - after the last attempt, hands a function with an `onFailure` destination (functions/routes.js
//   JOBS) to the dead-letter path: Lambda's destination record, as the SQS queue would hold it,
//   appended to a file that `npm run replay-deliveries -- --file <it>` replays; one without a
//   destination is dropped, logged, as Lambda drops it.
//
// Any other invocation (the stream poller's RequestResponse) is passed through as it is.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncListener, readBody } from './http-body';

/** Lambda's retries of a failed asynchronous invocation, and the pause before each. */
const RETRY_DELAYS_MS = [1000, 2000];

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** What Lambda sends an `onFailure` destination for an asynchronous invocation that failed every attempt. */
export type DeadLetterRecord = {
  version: '1.0';
  timestamp: string;
  requestContext: { requestId: string; functionArn: string; condition: 'RetriesExhausted'; approximateInvokeCount: number };
  requestPayload: unknown;
  responseContext: { statusCode: number; executedVersion: '$LATEST'; functionError: string };
  responsePayload: unknown;
};

export type AsyncInvoker = {
  /** The endpoint the handlers invoke (their LAMBDA_ENDPOINT). */
  endpoint: string;
  /** Stops answering; invocations under way end after their current attempt, without retries. */
  stop: () => Promise<void>;
};

export type AsyncInvokerOptions = {
  /** serverless-offline's Lambda endpoint (http://localhost:<lambdaPort>). */
  target: string;
  /** Deployed names of the functions whose failed runs go to the dead-letter path (`chat-local-messageFanout`). */
  deadLettered: ReadonlySet<string>;
  /** Where dead-letter records are appended, one JSON line each (none: only logged). */
  deadLetterFile?: string;
  log: (line: string) => void;
  retryDelaysMs?: number[];
};

type Attempt = { ok: true } | { ok: false; status: number; error: string; payload: unknown };

/** One synchronous run through serverless-offline; never throws. */
const runOnce = async (target: string, functionName: string, payload: Buffer): Promise<Attempt> => {
  try {
    const response = await fetch(`${target}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, {
      method: 'POST',
      headers: { 'x-amz-invocation-type': 'RequestResponse', 'content-type': 'application/json' },
      body: payload,
    });
    const text = await response.text();
    const functionError = response.headers.get('x-amz-function-error') ?? response.headers.get('x-amzn-errortype');
    if (response.status === 200 && !functionError) return { ok: true };
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    const message = (body as { errorMessage?: string; Message?: string } | undefined) ?? {};
    return {
      ok: false,
      status: response.status,
      error: `${functionError ?? `status ${response.status}`}: ${message.errorMessage ?? message.Message ?? text}`,
      payload: body,
    };
  } catch (error) {
    return { ok: false, status: 0, error: `invocation failed: ${String((error as Error).message ?? error)}`, payload: null };
  }
};

/** Starts the invoker on a free loopback port. */
export const startAsyncInvoker = async (opts: AsyncInvokerOptions): Promise<AsyncInvoker> => {
  const delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  const running = new Set<Promise<void>>();
  // Once stopping, a retry's pause ends at once and no further attempt starts.
  const stopping = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopping.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });

  const invokeAsync = async (functionName: string, payload: Buffer, requestId: string): Promise<void> => {
    let last: Exclude<Attempt, { ok: true }> | undefined;
    for (let attempt = 1; attempt <= delays.length + 1; attempt += 1) {
      const result = await runOnce(opts.target, functionName, payload);
      if (result.ok) return;
      last = result;
      opts.log(JSON.stringify({ asyncInvocation: functionName, requestId, attempt, error: result.error }));
      if (attempt > delays.length) break;
      await pause(delays[attempt - 1]);
      if (stopping.signal.aborted) {
        opts.log(JSON.stringify({ asyncInvocation: functionName, requestId, abandoned: 'the local service stopped before its retry' }));
        return;
      }
    }
    if (!opts.deadLettered.has(functionName)) {
      opts.log(JSON.stringify({ asyncInvocation: functionName, requestId, dropped: 'every attempt failed; no destination' }));
      return;
    }
    const record: DeadLetterRecord = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId,
        functionArn: `arn:aws:lambda:local:000000000000:function:${functionName}:$LATEST`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: delays.length + 1,
      },
      requestPayload: JSON.parse(payload.toString('utf8') || '{}'),
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: last?.payload ?? null,
    };
    if (opts.deadLetterFile) appendFileSync(opts.deadLetterFile, `${JSON.stringify(record)}\n`);
    opts.log(
      JSON.stringify({
        asyncInvocation: functionName,
        requestId,
        deadLettered: opts.deadLetterFile ?? 'no dead-letter file: logged only',
        record,
      }),
    );
  };

  const server: Server = createServer(
    asyncListener(async (req, res) => {
      const body = await readBody(req);
      const functionName = decodeURIComponent(INVOKE_PATH.exec(req.url?.split('?')[0] ?? '')?.[1] ?? '');
      if (req.method === 'POST' && functionName !== '' && req.headers['x-amz-invocation-type'] === 'Event') {
        const requestId = randomUUID();
        const job = invokeAsync(functionName, body, requestId).catch((error: unknown) =>
          opts.log(JSON.stringify({ asyncInvocation: functionName, requestId, error: String(error) })),
        );
        running.add(job);
        void job.finally(() => running.delete(job));
        res.writeHead(202, { 'x-amzn-requestid': requestId, 'content-length': '0' }).end();
        return;
      }
      // Anything else goes to serverless-offline as it is.
      const forwarded = await fetch(`${opts.target}${req.url ?? '/'}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host'),
        ),
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      const answer = Buffer.from(await forwarded.arrayBuffer());
      const headers = Object.fromEntries(
        [...forwarded.headers.entries()].filter(([k]) => k !== 'content-encoding' && k !== 'transfer-encoding'),
      );
      res.writeHead(forwarded.status, { ...headers, 'content-length': String(answer.length) }).end(answer);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // It serves its owner's children: it must not keep a process (a jest worker) alive by itself.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      stopping.abort();
      while (running.size > 0) await Promise.all([...running]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
