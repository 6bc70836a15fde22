// `npm start`'s stand-in for Lambda's event source on the main table's stream (serverless-offline
// has none): reads DynamoDB Local's stream about once a second and invokes the functions of
// functions/routes.js STREAM_CONSUMERS with the records their filter passes, through
// serverless-offline's Lambda endpoint, as deployed. A failed invocation is tried again on the next
// round with the same records, as Lambda retries a batch.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { localEndpoint } from '../lib/store/client';
import { mainStreamArn, readStream, type ShardPosition } from '../lib/store/table-stream';

const POLL_MS = 1000;

/** What the deliveryRecovery event source's filter passes (functions/routes.js): new messages with a pending delivery. */
const passesFilter = (r: _Record): boolean => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.pendingDelivery?.M?.owner?.S !== undefined;

export type StreamPoller = { stop: () => Promise<void> };

/** Starts polling; `functionName` is the deployed name of deliveryRecovery (serverless-offline's too). */
export const startStreamPoller = async (opts: {
  lambdaEndpoint: string;
  functionName: string;
  log: (line: string) => void;
}): Promise<StreamPoller> => {
  const arn = await mainStreamArn();
  if (!arn) {
    opts.log('The main table has no stream: interrupted deliveries are not recovered locally.');
    return { stop: async () => undefined };
  }
  const lambda = new LambdaClient({ region: process.env.AWS_REGION ?? 'us-east-1', ...localEndpoint(opts.lambdaEndpoint) });
  // From now on: what was written before this start is not a new message.
  let positions: ShardPosition[] = (await readStream(arn, 'all')).next;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const poll = async (): Promise<void> => {
    const known = new Set(positions.map((p) => p.shardId));
    const shards = (await readStream(arn, 'all', { shardsOnly: true })).next.filter((p) => !known.has(p.shardId));
    const { records, next } = await readStream(arn, [...positions, ...shards]);
    const batch = records.filter(passesFilter);
    if (batch.length > 0) {
      const out = await lambda.send(
        new InvokeCommand({ FunctionName: opts.functionName, Payload: Buffer.from(JSON.stringify({ Records: batch })) }),
      );
      if (out.FunctionError) throw new Error(`${opts.functionName}: ${Buffer.from(out.Payload ?? []).toString()}`);
    }
    positions = next;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = poll()
        .catch((error) => opts.log(`stream poller: ${String((error as Error).message ?? error)} (trying again)`))
        .finally(schedule);
    }, POLL_MS);
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
      lambda.destroy();
    },
  };
};
