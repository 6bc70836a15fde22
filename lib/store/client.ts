// The only place that builds DynamoDB clients. Every request made through them is counted, with
// its consumed capacity, so the benchmark can report calls and capacity units per API request.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

type CapacityEntry = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

/** Running totals of DynamoDB requests and consumed capacity in this process. */
export const dbMetrics = {
  requests: 0,
  /** The requests that write (Put, Update, Delete, BatchWrite, TransactWrite): a BatchWrite of 25 items is one. */
  writeRequests: 0,
  readUnits: 0,
  writeUnits: 0,
  byCommand: {} as Record<string, number>,
  reset(): void {
    this.requests = 0;
    this.writeRequests = 0;
    this.readUnits = 0;
    this.writeUnits = 0;
    this.byCommand = {};
  },
  snapshot(): { requests: number; writeRequests: number; readUnits: number; writeUnits: number; byCommand: Record<string, number> } {
    return {
      requests: this.requests,
      writeRequests: this.writeRequests,
      readUnits: this.readUnits,
      writeUnits: this.writeUnits,
      byCommand: { ...this.byCommand },
    };
  },
};

const WRITE_COMMANDS = /Put|Update|Delete|BatchWrite|TransactWrite/;

const recordCapacity = (command: string, consumed: unknown): void => {
  const entries = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as CapacityEntry[];
  for (const entry of entries) {
    const units = entry.CapacityUnits ?? (entry.ReadCapacityUnits ?? 0) + (entry.WriteCapacityUnits ?? 0);
    if (WRITE_COMMANDS.test(command)) dbMetrics.writeUnits += units;
    else dbMetrics.readUnits += units;
  }
};

/**
 * A client's options for a local stand-in endpoint (DynamoDB Local, serverless-offline's Lambda):
 * the endpoint, and the environment's credentials or placeholders (local services check none).
 * None for the region's own service, whose credentials the SDK finds itself.
 */
export const localEndpoint = (
  endpoint: string | undefined,
): { endpoint?: string; credentials?: { accessKeyId: string; secretAccessKey: string } } =>
  endpoint
    ? {
        endpoint,
        credentials: {
          accessKeyId: process.env.AWS_ACCESS_KEY_ID || 'local',
          secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || 'local',
        },
      }
    : {};

/** The options of a DynamoDB (or DynamoDB Streams) client: the local endpoint's, in the configured database of DynamoDB Local. */
export const dynamoEndpointOptions = (): ReturnType<typeof localEndpoint> => {
  const options = localEndpoint(config.dynamodbEndpoint());
  const database = config.dynamodbLocalDatabase();
  return options.credentials && database ? { ...options, credentials: { ...options.credentials, accessKeyId: database } } : options;
};

/** The SDK's largest pause between two attempts that were not throttled (its retry strategy's base delay, 50 ms, doubling). */
const RETRY_DELAY_BASE_MS = 50;

/**
 * How long one DynamoDB call may take, configured (lib/config.ts) and worst case: each attempt ends
 * within the request timeout (the connection's opening included), and between attempts the SDK
 * waits at most 50 ms, then 100 ms, … (throttled answers, which come at once, wait up to 1 s,
 * 2 s, … instead). docs/architecture.md, "DynamoDB calls", has the figures.
 */
export const dynamoCallLimits = () => {
  const connectionTimeoutMs = config.dynamodbConnectionTimeoutMs();
  const requestTimeoutMs = config.dynamodbRequestTimeoutMs();
  const maxAttempts = config.dynamodbMaxAttempts();
  const pausesMs = Array.from({ length: maxAttempts - 1 }, (_, retry) => RETRY_DELAY_BASE_MS * 2 ** retry).reduce((a, b) => a + b, 0);
  return { connectionTimeoutMs, requestTimeoutMs, maxAttempts, unansweredCallMs: maxAttempts * requestTimeoutMs + pausesMs };
};

let cached: { key: string; client: DynamoDBDocumentClient } | undefined;

/** The shared document client for the configured endpoint (rebuilt when the endpoint changes). */
export const documentClient = (): DynamoDBDocumentClient => {
  const endpoint = config.dynamodbEndpoint();
  // Called for every DynamoDB call: the key is the settings as read, the limits are derived only
  // when a client is built.
  const key = [
    endpoint,
    config.region(),
    config.dynamodbLocalDatabase(),
    config.dynamodbMaxSockets(),
    config.dynamodbConnectionTimeoutMs(),
    config.dynamodbRequestTimeoutMs(),
    config.dynamodbMaxAttempts(),
  ].join('|');
  if (cached?.key === key) return cached.client;
  const limits = dynamoCallLimits();
  const base = new DynamoDBClient({
    region: config.region(),
    // The SDK's standard retries (throttles, 5xx, timeouts, with backoff), at most maxAttempts attempts.
    maxAttempts: limits.maxAttempts,
    requestHandler: {
      // A Lambda serves one request at a time; a benchmark with a thousand waiting clients needs more (DYNAMODB_MAX_SOCKETS).
      httpAgent: { keepAlive: true, maxSockets: config.dynamodbMaxSockets() },
      httpsAgent: { keepAlive: true, maxSockets: config.dynamodbMaxSockets() },
      connectionTimeout: limits.connectionTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Without it the SDK only warns when the request timeout passes, and waits on (5 minutes).
      throwOnRequestTimeout: true,
    },
    ...dynamoEndpointOptions(),
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const command = String(context.commandName ?? 'Command');
      dbMetrics.requests += 1;
      if (WRITE_COMMANDS.test(command)) dbMetrics.writeRequests += 1;
      dbMetrics.byCommand[command] = (dbMetrics.byCommand[command] ?? 0) + 1;
      const result = await next(args);
      recordCapacity(command, (result.output as Record<string, unknown>).ConsumedCapacity);
      return result;
    },
    { step: 'initialize', name: 'countRequests' },
  );
  cached = { key, client };
  return client;
};

export const tableName = config.tableName;

/** Closes the cached client's connections (tests and scripts, before they exit). */
export const closeClients = (): void => {
  cached?.client.destroy();
  cached = undefined;
};
