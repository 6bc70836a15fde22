// The service's one way to write a log line or count something: Powertools for AWS Lambda's Logger
// (one JSON line per entry: level, message, timestamp, service, and the fields given; Lambda's log
// level, AWS_LAMBDA_LOG_LEVEL, filters it) and Metrics (CloudWatch's embedded metric format: a
// metric is a log line CloudWatch reads, no API call). Counts are summed in the process and
// written at most every five minutes, after a request: an idle long-poll adds to a count and writes
// nothing (docs/operations.md, "Logs and metrics"). A leaf: nothing of the service is imported.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

const SERVICE = 'chat';

/** The logger: `log.info('message', { field: value })`, `log.warn`, `log.error`. */
export const log = new Logger({ serviceName: SERVICE });

/**
 * What operators watch, as CloudWatch metrics (namespace Chat, dimension service): GET /events
 * polls, those that ended with only a heartbeat, the events polls delivered, and unhandled
 * exceptions (answered 500).
 */
export type Counter = 'Polls' | 'IdlePolls' | 'EventsDelivered' | 'Errors';

const metrics = new Metrics({ namespace: 'Chat', serviceName: SERVICE });
const pending = new Map<Counter, number>();
/**
 * Counts are written at most this often per process (one line for all of them). On standard
 * Lambda an environment holds one poll at a time, so this is about a line per connected client
 * every five minutes: 8,640 lines of about 400 bytes a month, $0.002 of CloudWatch Logs, where a
 * minute would cost $0.009.
 */
const METRICS_FLUSH_MS = 300_000;
let flushedAt = Date.now();

/** Adds `n` to a count; written by the next due flushMetrics. */
export const count = (name: Counter, n = 1): void => {
  pending.set(name, (pending.get(name) ?? 0) + n);
};

/**
 * Writes the counts summed since the last write as one line of embedded metric format, if
 * METRICS_FLUSH_MS has passed (or `force`). Called after each request, so a process that Lambda freezes
 * between invocations writes on its next one; the counts of the last minutes before an environment
 * is retired are lost, which the request log's errors are not.
 */
export const flushMetrics = (force = false): void => {
  if (pending.size === 0 || (!force && Date.now() - flushedAt < METRICS_FLUSH_MS)) return;
  for (const [name, value] of pending) metrics.addMetric(name, MetricUnit.Count, value);
  pending.clear();
  flushedAt = Date.now();
  metrics.publishStoredMetrics();
};
