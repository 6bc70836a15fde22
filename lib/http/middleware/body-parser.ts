// Parses the request body into a flat map of strings: form-urlencoded and multipart/form-data (what
// zulip-js sends), through middy's own parsers. An absent or empty body is an empty map, and a
// body of any other type is ignored, as upstream reads only form bodies.
import { randomBytes } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import httpMultipartBodyParser from '@middy/http-multipart-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError } from '../../errors';
import type { UploadedFile } from '../../models/attachment';

/**
 * `uploadedFiles`: the file parts of a multipart body, apart from the parameters (upstream's
 * request.FILES). `rawBody`: the body as sent, as UTF-8 text, for the routes that read a body of
 * another type (the incoming webhooks' JSON).
 */
type ParsedEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown; rawBody?: string; uploadedFiles?: UploadedFile[] };

const urlencoded = httpUrlencodeBodyParser({ disableContentTypeError: true });
const multipart = httpMultipartBodyParser({ disableContentTypeError: true });

const isEmpty = (body: unknown, base64: boolean | undefined): boolean =>
  body === undefined || body === null || body === '' || (base64 === true && Buffer.from(String(body), 'base64').length === 0);

/** Multipart bodies with only a closing boundary (an empty FormData) carry no field. */
const isEmptyMultipart = (event: ParsedEvent): boolean => {
  const text = event.isBase64Encoded ? Buffer.from(String(event.body), 'base64').toString() : String(event.body);
  return /^\s*--[^\r\n]*--\s*$/.test(text);
};

// middy's multipart parser accepts only `multipart/form-data; boundary=<[A-Za-z0-9-]{1,70}>`, and
// silently skips anything else: zulip-js (form-data) sends `;boundary=` with no space, Dart's http
// client uses boundary characters such as `_` and `.`. Rewrite the header to the one form middy
// reads; a boundary it would refuse is replaced in the body too, which is safe because a boundary
// never occurs inside the content it delimits.
const MIDDY_BOUNDARY = /^[A-Za-z0-9-]{1,70}$/;
const BOUNDARY_PARAM = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i;

const normalizeMultipart = (event: ParsedEvent, contentType: string): void => {
  const match = BOUNDARY_PARAM.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new BadRequestError('Malformed request body');
  let safe = boundary;
  if (!MIDDY_BOUNDARY.test(boundary)) {
    safe = `boundary-${randomBytes(16).toString('hex')}`;
    const bytes = event.isBase64Encoded ? Buffer.from(String(event.body), 'base64') : Buffer.from(String(event.body), 'utf8');
    const rewritten = Buffer.from(bytes.toString('latin1').split(`--${boundary}`).join(`--${safe}`), 'latin1');
    event.body = event.isBase64Encoded ? rewritten.toString('base64') : rewritten.toString('utf8');
  }
  event.headers = { ...event.headers, 'content-type': `multipart/form-data; boundary=${safe}` };
};

type FilePart = { filename: string; mimetype?: string; content: Buffer };
const isFilePart = (value: unknown): value is FilePart =>
  typeof value === 'object' && value !== null && 'content' in value && 'filename' in value && Buffer.isBuffer((value as FilePart).content);

/** Takes the file parts out of a parsed multipart body: every part sent with a filename. */
const takeFiles = (body: Record<string, unknown>): UploadedFile[] => {
  const files: UploadedFile[] = [];
  for (const [key, value] of Object.entries(body)) {
    const parts = Array.isArray(value) ? value : [value];
    const fileParts = parts.filter(isFilePart);
    if (fileParts.length === 0) continue;
    // A file input left empty sends a part with an empty filename: no file, as Django reads it.
    files.push(
      ...fileParts
        .filter((part) => String(part.filename) !== '')
        .map((part) => ({ filename: String(part.filename), contentType: part.mimetype ?? '', content: part.content })),
    );
    const rest = parts.filter((part) => !isFilePart(part));
    if (rest.length === 0) delete body[key];
    else body[key] = rest.length === 1 ? rest[0] : rest;
  }
  return files;
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
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (isEmpty(event.body, event.isBase64Encoded)) {
      event.body = {};
      event.rawBody = '';
      event.uploadedFiles = [];
      return;
    }
    event.uploadedFiles = [];
    event.rawBody = event.isBase64Encoded ? Buffer.from(String(event.body), 'base64').toString('utf8') : String(event.body);
    try {
      if (mediaType === 'application/x-www-form-urlencoded') {
        event.headers = { ...event.headers, 'content-type': mediaType };
        // middy refuses a body that is one key without `=`; upstream reads it as that key, empty.
        const text = event.isBase64Encoded ? Buffer.from(String(event.body), 'base64').toString('utf8') : String(event.body);
        event.body = text.includes('=') ? text : `${text}=`;
        event.isBase64Encoded = false;
        await urlencoded.before!(request as never);
      } else if (mediaType === 'multipart/form-data') {
        if (isEmptyMultipart(event)) event.body = {};
        else {
          normalizeMultipart(event, contentType);
          await multipart.before!(request as never);
        }
      } else event.body = {};
    } catch (error) {
      void error;
      throw new BadRequestError('Malformed request body');
    }
    // A form body the parsers left unparsed is malformed, not empty.
    if (typeof event.body !== 'object' || event.body === null) throw new BadRequestError('Malformed request body');
    event.uploadedFiles = takeFiles(event.body as Record<string, unknown>);
    event.body = Object.fromEntries(Object.entries(event.body as Record<string, unknown>).map(([k, v]) => [k, flatten(v)]));
  };
  return { before: bodyParserMiddlewareBefore };
};
