// The request line both wrappers write after a response (lib/http/api-handler.ts for the API,
// lib/web/page-handler.ts for pages), then the process's counts if due (lib/log.ts).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { flushMetrics, log } from '../log';
import { requestIdOf } from './request-id';

type RequestLine = { status: number; started: number; userId?: number; quiet?: boolean };

/**
 * One JSON line: route, status, duration, request id and, when authenticated, the user (unless
 * REQUEST_LOG=off). A quiet success (an idle poll) is logged only for a sample: the line would cost
 * more than the poll (config.quietRequestLogSample).
 */
export const logRequest = (
  event: Pick<APIGatewayProxyEventV2, 'routeKey' | 'rawPath' | 'requestContext'>,
  context: unknown,
  { status, started, userId, quiet = false }: RequestLine,
): void => {
  const sampledOut = quiet && status === 200 && Math.random() >= config.quietRequestLogSample();
  if (config.requestLog() && !sampledOut) {
    log.info('request', {
      route: event.routeKey ?? `${event.requestContext?.http?.method} ${event.rawPath}`,
      status,
      durationMs: Date.now() - started,
      requestId: requestIdOf(context),
      ...(userId === undefined ? {} : { userId }),
    });
  }
  flushMetrics();
};
