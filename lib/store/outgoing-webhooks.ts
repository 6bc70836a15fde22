// The only code that posts to an outgoing webhook bot's service (a URL its owner chose: hostile
// until proven otherwise). Only http and https; no redirect is followed (a 3xx is an answer like
// any other non-2xx); the whole exchange, the answer's body included, must end within the
// timeout; an answer larger than MAX_RESPONSE_BYTES is cut off and reported; and, as upstream's
// Smokescreen proxy does, no address on a loopback, private, link-local or otherwise internal
// network is connected to (checked on the address each connection resolves to, so a name that
// resolves elsewhere later cannot slip through), unless the operator allows it
// (OUTGOING_WEBHOOK_PRIVATE_NETWORKS=allow: `npm start` and the tests, whose bots run on this
// machine). The failures come in upstream's kinds (requests' Timeout, ConnectionError and other
// RequestException), which the job treats as upstream's do_rest_call does.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
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

/** Networks a service may not be on (IANA's special-purpose registries), unless allowed. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6');

/** Whether an address (IPv4, IPv6, or IPv4 mapped into IPv6) is on an internal network. */
export const isInternalAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1], 'ipv4');
  const family = isIP(address);
  return family === 0 || INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

const refused = (host: string) =>
  new ServiceRequestError('ForbiddenAddress', `${host} is on an internal network, which outgoing webhooks may not reach.`);

/** dns.lookup, refusing a name that resolves to an internal address (each connection's own resolution). */
const guardedLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
): void => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (!config.outgoingWebhookPrivateNetworks() && addresses.some((a) => isInternalAddress(a.address)))
      return callback(refused(hostname), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** The answer's body, failing once it passes MAX_RESPONSE_BYTES. */
const readCapped = (response: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_RESPONSE_BYTES) {
        response.destroy();
        reject(new ServiceRequestError('ResponseTooLarge', `The response is larger than ${MAX_RESPONSE_BYTES} bytes.`));
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });

/** One POST and its answer; aborted by `signal`. */
const exchange = (target: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<ServiceResponse> =>
  new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      target,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, signal, lookup: guardedLookup },
      (response) => {
        readCapped(response).then((read) => resolve({ status: response.statusCode ?? 0, body: read }), reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });

/**
 * POSTs `body` to the service's URL with the user agent upstream's webhooks send, and reads its
 * answer within config.outgoingWebhookTimeoutSeconds(). Throws ServiceTimeoutError,
 * ServiceConnectionError or ServiceRequestError (an internal address among them).
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
  // A literal address is connected to without a lookup.
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && isInternalAddress(literal) && !config.outgoingWebhookPrivateNetworks()) throw refused(literal);
  const signal = AbortSignal.timeout(config.outgoingWebhookTimeoutSeconds() * 1000);
  try {
    return await exchange(target, { 'Content-Type': request.contentType, 'User-Agent': userAgent }, request.body, signal);
  } catch (error) {
    if (error instanceof ServiceRequestError) throw error;
    if (signal.aborted) throw new ServiceTimeoutError();
    const { code, message } = error as { code?: string; message?: string };
    if (code !== undefined && CONNECTION_CODES.has(code)) throw new ServiceConnectionError(message ?? code);
    throw new ServiceRequestError('RequestException', String(message));
  }
};
