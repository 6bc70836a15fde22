// Turns a thrown error into the response: an ApiError becomes its upstream body and status;
// anything else is logged with the request id and becomes a bare 500, so a client never sees a
// stack trace or a DynamoDB message. Web pages (lib/web/page-handler.ts) give both as pages.
import type { MiddlewareObj } from '@middy/core';
import { ApiError } from '../../errors';
import { count, log } from '../../log';
import { jsonResponse, type HttpResponse } from '../response';
import { requestIdOf } from '../request-id';

/** How the two kinds of failure are answered: the API's JSON envelopes by default. */
export type ErrorResponses = { apiError: (error: ApiError) => HttpResponse; internalError: () => HttpResponse };

const JSON_RESPONSES: ErrorResponses = {
  apiError: (error) => jsonResponse(error.statusCode, error.toBody(), error.headers),
  internalError: () => jsonResponse(500, { result: 'error', msg: 'Internal server error' }),
};

export const errorHandler = (responses: ErrorResponses = JSON_RESPONSES): MiddlewareObj<any, HttpResponse> => {
  const errorHandlerMiddlewareOnError = async (request: {
    error: unknown;
    response: HttpResponse | null;
    event: unknown;
    context: unknown;
  }): Promise<void> => {
    const { error } = request;
    if (error instanceof ApiError) {
      request.response = responses.apiError(error);
      return;
    }
    log.error('unhandled exception', {
      requestId: requestIdOf(request.context),
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    count('Errors');
    request.response = responses.internalError();
  };
  return { onError: errorHandlerMiddlewareOnError };
};
