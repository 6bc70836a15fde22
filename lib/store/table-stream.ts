// Reading the main table's stream directly (DynamoDB Streams), outside Lambda's event source: to
// replay a batch the deliveryRecovery function gave up on (its dead-letter entry names the shard
// and the sequence numbers, and the stream keeps records 24 hours), and, locally, to feed that
// function as Lambda would (scripts/local-stream.ts; DynamoDB Local keeps a stream too).
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { config } from '../config';
import { dynamoEndpointOptions, tableName } from './client';

const clients = () => {
  const options = { region: config.region(), ...dynamoEndpointOptions() };
  return { tables: new DynamoDBClient(options), streams: new DynamoDBStreamsClient(options) };
};

/** The main table's stream (its latest), or undefined when it has none. */
export const mainStreamArn = async (): Promise<string | undefined> => {
  const { tables } = clients();
  try {
    return (await tables.send(new DescribeTableCommand({ TableName: tableName('main') }))).Table?.LatestStreamArn;
  } finally {
    tables.destroy();
  }
};

/** Where to read a shard from: its oldest record, or a sequence number on. */
export type ShardPosition = { shardId: string; after?: string; at?: string };

/**
 * Records of a stream's shards, in order, from each position to the end of what the shard holds
 * now (or up to and including `until`), with where to read on next time; with `shardsOnly`, only
 * the shards of `all` (each from its start).
 */
export const readStream = async (
  streamArn: string,
  positions: ShardPosition[] | 'all',
  opts: { until?: string; shardsOnly?: boolean } = {},
): Promise<{ records: _Record[]; next: ShardPosition[] }> => {
  const { streams } = clients();
  try {
    let from = positions;
    if (from === 'all') {
      const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
      from = shards.map((s) => ({ shardId: s.ShardId! }));
      if (opts.shardsOnly) return { records: [], next: from };
    }
    const records: _Record[] = [];
    const next: ShardPosition[] = [];
    for (const position of from) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: position.shardId,
          ...(position.at
            ? { ShardIteratorType: 'AT_SEQUENCE_NUMBER', SequenceNumber: position.at }
            : position.after
              ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position.after }
              : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      let iterator = ShardIterator;
      let last = position.after;
      reading: while (iterator) {
        const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        for (const record of out.Records ?? []) {
          const seq = record.dynamodb?.SequenceNumber;
          if (opts.until !== undefined && seq !== undefined && BigInt(seq) > BigInt(opts.until)) break reading;
          records.push(record);
          last = seq ?? last;
        }
        // An open shard always has a next iterator: stop at the end of what it holds now.
        if ((out.Records ?? []).length === 0) break;
        iterator = out.NextShardIterator;
      }
      next.push({ shardId: position.shardId, ...(last !== undefined ? { after: last } : {}) });
    }
    return { records, next };
  } finally {
    streams.destroy();
  }
};
