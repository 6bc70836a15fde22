// The local stand-in for Lambda's asynchronous invocation (scripts/local-lambda.ts), against a
// stand-in of serverless-offline's Lambda endpoint whose function fails a given number of runs.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { asyncListener, readBody } from '../../scripts/http-body';
import { startAsyncInvoker, type AsyncInvoker } from '../../scripts/local-lambda';

type Run = { functionName: string; invocationType: string | undefined; payload: unknown };

/** serverless-offline's Lambda endpoint as far as the invoker sees it: a run fails while `failing` counts down. */
const startTarget = async () => {
  const state = { failing: 0, runs: [] as Run[] };
  const server: Server = createServer(
    asyncListener(async (req, res) => {
      const functionName = decodeURIComponent(/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
      const payload = JSON.parse((await readBody(req)).toString() || '{}');
      state.runs.push({ functionName, invocationType: req.headers['x-amz-invocation-type'] as string | undefined, payload });
      if (state.failing > 0) {
        state.failing -= 1;
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' })
          .end(JSON.stringify({ errorMessage: 'socket hang up', errorType: 'TimeoutError' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: payload }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

let target: Awaited<ReturnType<typeof startTarget>>;
let invoker: AsyncInvoker;
let lines: string[];
let deadLetterFile: string;
let lambda: LambdaClient;

const invokeEvent = (functionName: string, payload: unknown) =>
  lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(payload)) }));

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

beforeEach(async () => {
  target = await startTarget();
  lines = [];
  deadLetterFile = join(mkdtempSync(join(tmpdir(), 'dead-letters-')), 'dead-letters.jsonl');
  invoker = await startAsyncInvoker({
    target: target.url,
    deadLettered: new Set(['chat-local-messageFanout']),
    deadLetterFile,
    log: (line) => lines.push(line),
    retryDelaysMs: [20, 40],
  });
  lambda = new LambdaClient({ region: 'us-east-1', endpoint: invoker.endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});

afterEach(async () => {
  lambda.destroy();
  await invoker.stop();
  await new Promise<void>((resolve) => target.server.close(() => resolve()));
});

describe('the local asynchronous invoker', () => {
  it('answers 202 with a request id at once and runs the function through a synchronous invocation', async () => {
    const out = await invokeEvent('chat-local-push', { kind: 'message', messageId: 7 });
    expect(out.StatusCode).toBe(202);
    expect(out.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => target.state.runs.length === 1);
    expect(target.state.runs).toEqual([
      { functionName: 'chat-local-push', invocationType: 'RequestResponse', payload: { kind: 'message', messageId: 7 } },
    ]);
    expect(lines).toEqual([]);
  });

  it('retries a failed run twice, logging each failure with the request id, and stops at the first success', async () => {
    target.state.failing = 2;
    const out = await invokeEvent('chat-local-push', { n: 1 });
    await until(() => target.state.runs.length === 3);
    await invoker.stop();
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { asyncInvocation: 'chat-local-push', requestId: out.$metadata.requestId, attempt: 1, error: 'Unhandled: socket hang up' },
      { asyncInvocation: 'chat-local-push', requestId: out.$metadata.requestId, attempt: 2, error: 'Unhandled: socket hang up' },
    ]);
    expect(existsSync(deadLetterFile)).toBe(false);
  });

  it("drops a function's run that failed every attempt when it has no destination, as Lambda does", async () => {
    target.state.failing = 5;
    await invokeEvent('chat-local-push', { n: 2 });
    await until(() => lines.length === 4);
    expect(target.state.runs).toHaveLength(3);
    expect(JSON.parse(lines[3])).toMatchObject({ asyncInvocation: 'chat-local-push', dropped: 'every attempt failed; no destination' });
    expect(existsSync(deadLetterFile)).toBe(false);
  });

  it("records a run that failed every attempt as Lambda's destination record in the dead-letter file", async () => {
    target.state.failing = 3;
    const out = await invokeEvent('chat-local-messageFanout', { realmId: 2, messageId: 40 });
    await until(() => existsSync(deadLetterFile));
    expect(target.state.runs).toHaveLength(3);
    const records = readFileSync(deadLetterFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toEqual([
      {
        version: '1.0',
        timestamp: expect.any(String),
        requestContext: {
          requestId: out.$metadata.requestId,
          functionArn: 'arn:aws:lambda:local:000000000000:function:chat-local-messageFanout:$LATEST',
          condition: 'RetriesExhausted',
          approximateInvokeCount: 3,
        },
        requestPayload: { realmId: 2, messageId: 40 },
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        responsePayload: { errorMessage: 'socket hang up', errorType: 'TimeoutError' },
      },
    ]);
  });

  it('keeps answering while runs fail, and passes a synchronous invocation through with its result', async () => {
    target.state.failing = 1;
    await invokeEvent('chat-local-push', { n: 3 });
    await until(() => target.state.runs.length === 2);
    const out = await lambda.send(
      new InvokeCommand({ FunctionName: 'chat-local-deliveryRecovery', Payload: Buffer.from('{"Records":[]}') }),
    );
    expect(out.StatusCode).toBe(200);
    expect(out.FunctionError).toBeUndefined();
    expect(JSON.parse(Buffer.from(out.Payload!).toString())).toEqual({ ok: { Records: [] } });
  });

  it('gives up the retries still waiting when it stops', async () => {
    target.state.failing = 3;
    await invoker.stop();
    invoker = await startAsyncInvoker({
      target: target.url,
      deadLettered: new Set(),
      log: (line) => lines.push(line),
      retryDelaysMs: [60_000, 60_000],
    });
    lambda.destroy();
    lambda = new LambdaClient({ region: 'us-east-1', endpoint: invoker.endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
    await invokeEvent('chat-local-push', { n: 4 });
    await until(() => lines.length === 1);
    const started = Date.now();
    await invoker.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(JSON.parse(lines[1])).toMatchObject({ abandoned: 'the local service stopped before its retry' });
    expect(target.state.runs).toHaveLength(1);
  });
});
