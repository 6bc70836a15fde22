// Parses the request body into a flat map of strings: form-urlencoded and multipart/form-data (what
// zulip-js sends), through middy's own parsers. An absent or empty body is an empty map, and a
// body of any other type is ignored, as upstream reads only form bodies.
import type { MiddlewareObj } from '@middy/core';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError } from '../../errors';

type ParsedEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown };

const urlencoded = httpUrlencodeBodyParser({ disableContentTypeError: true });
const multipart = httpMultipartBodyParser({ disableContentTypeError: true });

const isEmpty = (body: unknown, base64: boolean | undefined): boolean =>
  body === undefined || body === null || body === '' || (base64 === true && Buffer.from(String(body), 'base64').length === 0);

/** Multipart bodies with only a closing boundary (an empty FormData) carry no field. */
const isEmptyMultipart = (event: ParsedEvent): boolean => {
  const text = event.isBase64Encoded ? Buffer.from(String(event.body), 'base64').toString() : String(event.body);
  return /^\s*--[^\r\n]*--\s*$/.test(text);
};

const flatten = (value: unknown): string => {
  if (Array.isArray(value)) return flatten(value[value.length - 1]);
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'content' in value) return String((value as { content: Buffer }).content);
  return String(value ?? '');
};

export const bodyParser = (): MiddlewareObj<ParsedEvent> => {
  const bodyParserMiddlewareBefore = async (request: { event: ParsedEvent }): Promise<void> => {
    const { event } = request;
    const contentType = String(event.headers?.['content-type'] ?? '');
    if (isEmpty(event.body, event.isBase64Encoded)) {
      event.body = {};
      return;
    }
    try {
      if (contentType.startsWith('application/x-www-form-urlencoded')) await urlencoded.before!(request as never);
      else if (contentType.startsWith('multipart/form-data')) {
        if (isEmptyMultipart(event)) event.body = {};
        else await multipart.before!(request as never);
      } else event.body = {};
    } catch (error) {
      void error;
      throw new BadRequestError('Malformed request body');
    }
    if (typeof event.body !== 'object' || event.body === null) event.body = {};
    event.body = Object.fromEntries(Object.entries(event.body as Record<string, unknown>).map(([k, v]) => [k, flatten(v)]));
  };
  return { before: bodyParserMiddlewareBefore };
};
