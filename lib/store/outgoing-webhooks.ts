// The only code that posts to an outgoing webhook bot's service (a URL its owner chose: hostile
// until proven otherwise). Only http and https; no redirect is followed (a 3xx is an answer like
// any other non-2xx); the whole exchange, the answer's body included, must end within the
// timeout; an answer larger than MAX_RESPONSE_BYTES is cut off and reported. The failures come
// in upstream's kinds (requests' Timeout, ConnectionError and other RequestException), which the
// job treats as upstream's do_rest_call does.
import { config } from '../config';

/** The most of a service's answer read (a reply is at most a message, 10,000 characters). */
const MAX_RESPONSE_BYTES = 256 * 1024;

/** The service did not answer in time (upstream's requests.exceptions.Timeout): retried. */
export class ServiceTimeoutError extends Error {
  constructor() {
    super('the service did not answer in time');
    this.name = 'ServiceTimeoutError';
  }
}

/** The service could not be reached (refused, reset, no such host: upstream's ConnectionError): retried. */
export class ServiceConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceConnectionError';
  }
}

/** Any other failure of the exchange (a bad URL, an answer too large): reported, not retried. `kind`: its name in the notice. */
export class ServiceRequestError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceRequestError';
  }
}

/** A service's answer: its status and body (at most MAX_RESPONSE_BYTES). */
export type ServiceResponse = { status: number; body: Buffer };

/** Network failures that mean the service is not there (upstream's ConnectionError), by Node's error code. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

const readCapped = async (response: Response): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES)
      throw new ServiceRequestError('ResponseTooLarge', `The response is larger than ${MAX_RESPONSE_BYTES} bytes.`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
};

/**
 * POSTs `body` to the service's URL with the user agent upstream's webhooks send, and reads its
 * answer within config.outgoingWebhookTimeoutSeconds(). Throws ServiceTimeoutError,
 * ServiceConnectionError or ServiceRequestError.
 */
export const postToService = async (
  url: string,
  request: { contentType: string; body: string },
  userAgent: string,
): Promise<ServiceResponse> => {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ServiceRequestError('InvalidURL', `Invalid URL ${JSON.stringify(url)}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new ServiceRequestError('InvalidSchema', `No connection adapters were found for ${JSON.stringify(url)}`);
  const signal = AbortSignal.timeout(config.outgoingWebhookTimeoutSeconds() * 1000);
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': request.contentType, 'User-Agent': userAgent },
      body: request.body,
      redirect: 'manual',
      signal,
    });
    return { status: response.status, body: await readCapped(response) };
  } catch (error) {
    if (error instanceof ServiceRequestError) throw error;
    if (signal.aborted) throw new ServiceTimeoutError();
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code !== undefined && CONNECTION_CODES.has(cause.code)) throw new ServiceConnectionError(cause.message ?? cause.code);
    throw new ServiceRequestError('RequestException', String(cause?.message ?? (error as Error).message));
  }
};
