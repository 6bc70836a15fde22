// `npm start`'s stand-in for Lambda's event source on the main table's stream (serverless-offline
// has none): each consumer of functions/routes.js STREAM_CONSUMERS reads DynamoDB Local's stream
// on its own twice a second and is invoked with the records its filter passes, through
// serverless-offline's Lambda endpoint, as deployed. A failed invocation is tried again on that
// consumer's next round with the same records, as Lambda retries a batch (each consumer is
// idempotent, as Lambda's retries require).
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
  // One reader per consumer, as each of Lambda's event source mappings reads the stream on its own:
  // a consumer that waits (deliveryRecovery waits out a request's lease, up to 15 s) never holds
  // back another (searchIndex, which makes a message searchable about a second after its send).
  const readers = await Promise.all(
    (Object.entries(STREAM_FILTERS) as [keyof typeof STREAM_FILTERS, (r: _Record) => boolean][]).map(async ([consumer, passes]) => {
      // From now on: what was written before this start is not a new message.
      let positions: ShardPosition[] = (await readStream(arn, 'all')).next;
      const FunctionName = opts.functionName(consumer);
      return async (): Promise<void> => {
        const known = new Set(positions.map((p) => p.shardId));
        const shards = (await readStream(arn, 'all', { shardsOnly: true })).next.filter((p) => !known.has(p.shardId));
        const { records, next } = await readStream(arn, [...positions, ...shards]);
        const batch = records.filter(passes);
        if (batch.length > 0) {
          const out = await lambda.send(new InvokeCommand({ FunctionName, Payload: Buffer.from(JSON.stringify({ Records: batch })) }));
          if (out.FunctionError) throw new Error(`${FunctionName}: ${Buffer.from(out.Payload ?? []).toString()}`);
        }
        positions = next;
      };
    }),
  );
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const rounds = new Set<Promise<void>>();
  const schedule = (poll: () => Promise<void>) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const round = poll()
        .catch((error) => opts.log(`stream poller: ${String((error as Error).message ?? error)} (trying again)`))
        .finally(() => {
          rounds.delete(round);
          schedule(poll);
        });
      rounds.add(round);
    }, POLL_MS);
    timers.add(timer);
  };
  readers.forEach(schedule);
  return {
    stop: async () => {
      stopped = true;
      timers.forEach(clearTimeout);
      await Promise.all(rounds);
      lambda.destroy();
    },
  };
};
