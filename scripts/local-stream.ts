// `npm start`'s stand-in for Lambda's event source on the main table's stream (serverless-offline
// has none): reads DynamoDB Local's stream twice a second and invokes the functions of
// functions/routes.js STREAM_CONSUMERS with the records their filter passes, through
// serverless-offline's Lambda endpoint, as deployed. A failed invocation is tried again on the next
// round with the same records, as Lambda retries a batch (a consumer that succeeded gets them again
// too: each is idempotent, as Lambda's retries require).
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { localEndpoint } from '../lib/store/client';
import { mainStreamArn, readStream, type ShardPosition } from '../lib/store/table-stream';

const POLL_MS = 500;

/** What each consumer's event source filter passes (functions/routes.js STREAM_CONSUMERS filterPatterns). */
export const STREAM_FILTERS: Record<'deliveryRecovery' | 'searchIndex', (r: _Record) => boolean> = {
  // New messages with a pending delivery.
  deliveryRecovery: (r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.pendingDelivery?.M?.owner?.S !== undefined,
  // Every change to a message item.
  searchIndex: (r) => r.dynamodb?.Keys?.sk?.S === 'MSG' && (r.dynamodb.Keys.pk?.S ?? '').startsWith('MSG#'),
};

export type StreamPoller = { stop: () => Promise<void> };

/** Starts polling; `functionName` gives a consumer's deployed name (serverless-offline's too). */
export const startStreamPoller = async (opts: {
  lambdaEndpoint: string;
  functionName: (consumer: keyof typeof STREAM_FILTERS) => string;
  log: (line: string) => void;
}): Promise<StreamPoller> => {
  const arn = await mainStreamArn();
  if (!arn) {
    opts.log('The main table has no stream: interrupted deliveries are not recovered and messages are not indexed for search locally.');
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
    for (const [consumer, passes] of Object.entries(STREAM_FILTERS)) {
      const batch = records.filter(passes);
      if (batch.length === 0) continue;
      const FunctionName = opts.functionName(consumer as keyof typeof STREAM_FILTERS);
      const out = await lambda.send(new InvokeCommand({ FunctionName, Payload: Buffer.from(JSON.stringify({ Records: batch })) }));
      if (out.FunctionError) throw new Error(`${FunctionName}: ${Buffer.from(out.Payload ?? []).toString()}`);
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
