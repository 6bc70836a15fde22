// The only code that talks to the mobile push notification service (upstream's push bouncer):
// requests to `<PUSH_BOUNCER_URL>/api/v1/remotes/<endpoint>` with HTTP Basic authentication as this
// server (ZULIP_ORG_ID and ZULIP_ORG_KEY), as upstream's send_to_push_bouncer. `npm start` and the
// tests run a local bouncer (scripts/local-bouncer.ts) that checks the same protocol.
//
// Failures come in two kinds, as upstream's: the bouncer could not be reached, timed out or
// answered 5xx (BouncerRetryLaterError: the caller's job fails and is retried later), or it
// refused the request with a 4xx and an error code (BouncerRefusedError: retrying the same request
// does not help, except after re-registering, see lib/actions/push/bouncer.ts).
import { config } from '../config';

/** The bouncer could not be reached or failed itself (network error, timeout, 5xx): try again later. */
export class BouncerRetryLaterError extends Error {
  constructor(
    message: string,
    /** `network`: not reached or no answer in time; `server`: it answered 5xx. */
    readonly kind: 'network' | 'server',
  ) {
    super(message);
    this.name = 'BouncerRetryLaterError';
  }
}

/** The bouncer refused the request (4xx, or an answer that is not its JSON envelope). */
export class BouncerRefusedError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number,
  ) {
    super(message);
    this.name = 'BouncerRefusedError';
  }
}

/** How long one request to the bouncer may take (upstream's PushBouncerSession timeout is 30 s; a job has more than that). */
const BOUNCER_TIMEOUT_MS = 15_000;

/**
 * A request body: form fields (upstream posts most endpoints form-encoded, with JSON-encoded
 * values where a field is a list or object), or one JSON document (push/e2ee/notify).
 */
export type BouncerBody = { form: Record<string, string | number> } | { json: unknown };

/**
 * Sends one request to the configured bouncer and returns its success answer. Throws
 * BouncerRetryLaterError or BouncerRefusedError as above; an error when push is not configured.
 */
export const sendToBouncer = async (
  endpoint: string,
  body: BouncerBody,
  opts: { timeoutMs?: number } = {},
): Promise<Record<string, unknown>> => {
  const bouncer = config.pushBouncer();
  if (!bouncer) throw new Error('the push notification service is not configured');
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${bouncer.orgId}:${bouncer.orgKey}`).toString('base64')}`,
    'user-agent': 'ZulipServer/serverless-chat',
  };
  let payload: string;
  if ('json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(Object.entries(body.form).map(([k, v]): [string, string] => [k, String(v)])).toString();
  }
  let response: Response;
  try {
    response = await fetch(`${bouncer.url}/api/v1/remotes/${endpoint}`, {
      method: 'POST',
      headers,
      body: payload,
      signal: AbortSignal.timeout(opts.timeoutMs ?? BOUNCER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new BouncerRetryLaterError(`${(error as Error).name} while trying to connect to push notification bouncer`, 'network');
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500) throw new BouncerRetryLaterError(`Received ${response.status} from push notification bouncer`, 'server');
  let parsed: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    parsed = undefined;
  }
  if (response.status >= 400) {
    throw new BouncerRefusedError(
      typeof parsed?.msg === 'string' ? parsed.msg : `Push notification bouncer returned ${response.status}`,
      typeof parsed?.code === 'string' ? parsed.code : undefined,
      response.status,
    );
  }
  if (response.status !== 200 || !parsed) {
    throw new BouncerRefusedError(
      `Push notification bouncer returned unexpected status code ${response.status}`,
      undefined,
      response.status,
    );
  }
  return parsed;
};
