import { contentDisposition, isInlineMimeType } from '../models/attachment';
import { gzipSync } from 'node:zlib';

/** A Lambda response of API Gateway's payload 2.0: `cookies` are sent as one Set-Cookie header each. */
export type HttpResponse = {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
  cookies?: string[];
};

/**
 * Bodies at least this large are gzipped for clients that accept it: a large organization's
 * register snapshot would otherwise pass Lambda's 6 MB response limit (JSON compresses ~10x).
 */
export const COMPRESS_MIN_BYTES = 32 * 1024;

/** Gzips a large JSON body when the Accept-Encoding header allows it (base64, as Lambda requires). */
export const compressIfAccepted = (response: HttpResponse, acceptEncoding: string | undefined): HttpResponse => {
  if (response.isBase64Encoded || Buffer.byteLength(response.body) < COMPRESS_MIN_BYTES) return response;
  if (!/(^|,)\s*(gzip|\*)\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(acceptEncoding ?? '')) return response;
  return {
    ...response,
    headers: { ...response.headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' },
    body: gzipSync(response.body).toString('base64'),
    isBase64Encoded: true,
  };
};

/** A JSON response; bodies end with a newline, as upstream's orjson responses do. */
export const jsonResponse = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: `${JSON.stringify(body)}\n`,
});

/** The success envelope: `{"result":"success","msg":"", ...data}`. */
export const jsonSuccess = (data: Record<string, unknown> = {}, ignored: string[] = []): HttpResponse =>
  jsonResponse(200, {
    result: 'success',
    msg: '',
    ...data,
    ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
  });

/**
 * An uploaded file's bytes (base64, as Lambda returns binary), with its type, upstream's
 * Content-Disposition (inline only for types a browser shows safely) and private caching: a
 * path id never names other bytes, so the response never changes.
 */
export const fileResponse = (file: { name: string; contentType: string }, body: Buffer): HttpResponse => ({
  statusCode: 200,
  headers: {
    'Content-Type': file.contentType,
    'Content-Disposition': contentDisposition(file.name, isInlineMimeType(file.contentType)),
    'Cache-Control': 'private, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  },
  body: body.toString('base64'),
  isBase64Encoded: true,
});

/** A 302 redirect, as Django's redirect() answers. */
export const redirectResponse = (location: string): HttpResponse => ({
  statusCode: 302,
  headers: { Location: location, 'Content-Type': 'text/html; charset=utf-8' },
  body: '',
});
