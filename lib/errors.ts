// Every failure a client can cause is an ApiError: a status, an upstream error code, the upstream
// message and optional extra top-level fields. Only lib/http/error-handler turns them into bodies.

export const ErrorCode = {
  BAD_REQUEST: 'BAD_REQUEST',
  BAD_NARROW: 'BAD_NARROW',
  REQUEST_VARIABLE_MISSING: 'REQUEST_VARIABLE_MISSING',
  REQUEST_CONFUSING_VAR: 'REQUEST_CONFUSING_VAR',
  STREAM_DOES_NOT_EXIST: 'STREAM_DOES_NOT_EXIST',
  CHANNEL_ALREADY_EXISTS: 'CHANNEL_ALREADY_EXISTS',
  STREAM_WILDCARD_MENTION_NOT_ALLOWED: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
  TOPIC_WILDCARD_MENTION_NOT_ALLOWED: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  UNAUTHORIZED_PRINCIPAL: 'UNAUTHORIZED_PRINCIPAL',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  USER_DEACTIVATED: 'USER_DEACTIVATED',
  REALM_DEACTIVATED: 'REALM_DEACTIVATED',
  NONEXISTENT_SUBDOMAIN: 'NONEXISTENT_SUBDOMAIN',
  BAD_EVENT_QUEUE_ID: 'BAD_EVENT_QUEUE_ID',
  CANNOT_DEACTIVATE_GROUP_IN_USE: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
  CANNOT_DEACTIVATE_LAST_USER: 'CANNOT_DEACTIVATE_LAST_USER',
  EXPECTATION_MISMATCH: 'EXPECTATION_MISMATCH',
  RATE_LIMIT_HIT: 'RATE_LIMIT_HIT',
  PUSH_SERVICE_NOT_CONFIGURED: 'PUSH_SERVICE_NOT_CONFIGURED',
  NO_ACTIVE_PUSH_DEVICE: 'NO_ACTIVE_PUSH_DEVICE',
  INVALID_PUSH_DEVICE_TOKEN: 'INVALID_PUSH_DEVICE_TOKEN',
  INVALID_REMOTE_PUSH_DEVICE_TOKEN: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
  ADMIN_ACTION_REQUIRED: 'ADMIN_ACTION_REQUIRED',
  FAILED_TO_CONNECT_BOUNCER: 'FAILED_TO_CONNECT_BOUNCER',
  INTERNAL_SERVER_ERROR_ON_BOUNCER: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
  REACTION_ALREADY_EXISTS: 'REACTION_ALREADY_EXISTS',
  REACTION_DOES_NOT_EXIST: 'REACTION_DOES_NOT_EXIST',
  INVITATION_FAILED: 'INVITATION_FAILED',
  CSRF_FAILED: 'CSRF_FAILED',
  INVALID_API_KEY: 'INVALID_API_KEY',
  INVALID_JSON: 'INVALID_JSON',
  UNSUPPORTED_WEBHOOK_EVENT_TYPE: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
  MISSING_HTTP_EVENT_HEADER: 'MISSING_HTTP_EVENT_HEADER',
  ANOMALOUS_WEBHOOK_PAYLOAD: 'ANOMALOUS_WEBHOOK_PAYLOAD',
  /** Ours, not upstream's: the search database is resuming from its pause (lib/search/client.ts). */
  SEARCH_UNAVAILABLE: 'SEARCH_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type ErrorData = Record<string, unknown>;

export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode | undefined;
  readonly data: ErrorData;
  readonly headers: Record<string, string>;

  constructor(
    message: string,
    opts: { statusCode?: number; code?: ErrorCode | null; data?: ErrorData; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ApiError';
    this.statusCode = opts.statusCode ?? 400;
    this.code = opts.code === null ? undefined : (opts.code ?? ErrorCode.BAD_REQUEST);
    this.data = opts.data ?? {};
    this.headers = opts.headers ?? {};
  }

  /** The wire body: `{"result":"error","msg",...,"code"?,...data}`. */
  toBody(): Record<string, unknown> {
    return { result: 'error', msg: this.message, ...(this.code ? { code: this.code } : {}), ...this.data };
  }
}

/** Upstream's ChannelExistsError: 409 "Channel '<name>' already exists", with the name as `channel_name`. */
export class ChannelExistsError extends ApiError {
  constructor(channelName: string) {
    super(`Channel '${channelName}' already exists`, {
      statusCode: 409,
      code: ErrorCode.CHANNEL_ALREADY_EXISTS,
      data: { channel_name: channelName },
    });
    this.name = 'ChannelExistsError';
  }
}

/** 400 BAD_REQUEST with the upstream message: the common case. */
export class BadRequestError extends ApiError {
  constructor(message: string, data?: ErrorData) {
    super(message, { data });
    this.name = 'BadRequestError';
  }
}

/** One refused address of POST /invites: the address, why, and whether its account is deactivated. */
export type InvitationSkip = [email: string, reason: string, deactivated: boolean];

/** Upstream's InvitationError (INVITATION_FAILED): which addresses failed and whether any invitation went out. */
export class InvitationError extends ApiError {
  constructor(message: string, errors: InvitationSkip[], opts: { sentInvitations: boolean; dailyLimitReached?: boolean }) {
    super(message, {
      code: ErrorCode.INVITATION_FAILED,
      data: {
        errors,
        sent_invitations: opts.sentInvitations,
        license_limit_reached: false,
        daily_limit_reached: opts.dailyLimitReached ?? false,
      },
    });
    this.name = 'InvitationError';
  }
}

/** 404, used where upstream raises ResourceNotFoundError ("Draft does not exist", ...). */
export class ResourceNotFoundError extends ApiError {
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, { statusCode: 404, cause: opts.cause });
    this.name = 'ResourceNotFoundError';
  }
}

/** `Missing 'x' argument` (REQUEST_VARIABLE_MISSING, with var_name). */
export class MissingArgumentError extends ApiError {
  constructor(varName: string) {
    super(`Missing '${varName}' argument`, { code: ErrorCode.REQUEST_VARIABLE_MISSING, data: { var_name: varName } });
    this.name = 'MissingArgumentError';
  }
}

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="zulip"' };
const SESSION_CHALLENGE = { 'WWW-Authenticate': 'Session realm="zulip"' };

/** 401 UNAUTHORIZED with the Basic challenge: every API-key failure, as upstream re-raises them. */
export class UnauthorizedError extends ApiError {
  constructor(message = 'Not logged in: API authentication or user session required', code: ErrorCode = ErrorCode.UNAUTHORIZED) {
    super(message, { statusCode: 401, code, headers: BASIC_CHALLENGE });
    this.name = 'UnauthorizedError';
  }
}

/** 401 UNAUTHORIZED of a /json/ request without a live session: upstream asks for session authentication. */
export class SessionRequiredError extends ApiError {
  constructor() {
    super('Not logged in: API authentication or user session required', {
      statusCode: 401,
      code: ErrorCode.UNAUTHORIZED,
      headers: SESSION_CHALLENGE,
    });
    this.name = 'SessionRequiredError';
  }
}

/** 403 CSRF_FAILED: a /json/ request that changes something without the session's CSRF token (upstream's CsrfFailureError). */
export class CsrfFailedError extends ApiError {
  constructor(reason: string) {
    super(`CSRF error: ${reason}`, { statusCode: 403, code: ErrorCode.CSRF_FAILED });
    this.name = 'CsrfFailedError';
  }
}

/** 401 for password-style authentication failures (dev_fetch_api_key). */
export class AuthenticationFailedError extends ApiError {
  constructor(message: string, code: ErrorCode = ErrorCode.AUTHENTICATION_FAILED) {
    super(message, { statusCode: 401, code });
    this.name = 'AuthenticationFailedError';
  }
}

/** "Must be an organization administrator" and friends (400, UNAUTHORIZED_PRINCIPAL). */
export class UnauthorizedPrincipalError extends ApiError {
  constructor(message: string) {
    super(message, { code: ErrorCode.UNAUTHORIZED_PRINCIPAL });
    this.name = 'UnauthorizedPrincipalError';
  }
}

export class BadEventQueueIdError extends ApiError {
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, { code: ErrorCode.BAD_EVENT_QUEUE_ID, data: { queue_id: queueId } });
    this.name = 'BadEventQueueIdError';
  }
}

/** 405 for a known path with a method it does not serve; upstream's body has no code. */
export class MethodNotAllowedError extends ApiError {
  constructor(allowedMethods: string[]) {
    super('Method Not Allowed', { statusCode: 405, code: null, data: { allowed_methods: allowedMethods } });
    this.name = 'MethodNotAllowedError';
  }
}

/** JSON 404 for an unknown path under /api/v1 (upstream serves an HTML page; clients prefer JSON). */
export class PathNotFoundError extends ApiError {
  constructor() {
    super('Not Found', { statusCode: 404, code: ErrorCode.BAD_REQUEST });
    this.name = 'PathNotFoundError';
  }
}

/**
 * 429 RATE_LIMIT_HIT with upstream's message, `retry-after` (seconds) in the body and the header:
 * too many login attempts (`rule`: the limit that refused, for upstream's X-RateLimit-* headers:
 * its count, none remaining, and when it frees up, in epoch seconds), or a write that lost the
 * race to concurrent writes of the same object on every one of its bounded attempts (nothing was
 * written).
 */
export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds = 1, rule?: { limit: number; resetAtSeconds: number }) {
    super('API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers', {
      statusCode: 429,
      code: ErrorCode.RATE_LIMIT_HIT,
      data: { 'retry-after': retryAfterSeconds },
      headers: {
        'Retry-After': String(Math.ceil(retryAfterSeconds)),
        ...(rule
          ? {
              'X-RateLimit-Limit': String(rule.limit),
              'X-RateLimit-Remaining': '0',
              'X-RateLimit-Reset': String(Math.floor(rule.resetAtSeconds)),
            }
          : {}),
      },
    });
    this.name = 'RateLimitedError';
  }
}

/** 404 NONEXISTENT_SUBDOMAIN "Invalid subdomain": a login at a host that names no organization. */
export class InvalidSubdomainError extends ApiError {
  constructor() {
    super('Invalid subdomain', { statusCode: 404, code: ErrorCode.NONEXISTENT_SUBDOMAIN });
    this.name = 'InvalidSubdomainError';
  }
}

/**
 * Upstream's UnsupportedWebhookEventTypeError: an event the service sends that the integration
 * does not post. Its status is 200, as upstream's (the service should not retry it), with the
 * error envelope; `webhookName` is filled in by the webhook action, as upstream's webhook_view does.
 */
export class UnsupportedWebhookEventTypeError extends ApiError {
  constructor(
    readonly eventType: string,
    webhookName = '(unknown)',
  ) {
    super(`The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, {
      statusCode: 200,
      code: ErrorCode.UNSUPPORTED_WEBHOOK_EVENT_TYPE,
      data: { webhook_name: webhookName, event_type: eventType },
    });
    this.name = 'UnsupportedWebhookEventTypeError';
  }
}

/** Upstream's MissingHTTPEventHeaderError: the header that names the event type is absent (400). */
export class MissingHttpEventHeaderError extends ApiError {
  constructor(readonly header: string) {
    super(`Missing the HTTP event header '${header}'`, { code: ErrorCode.MISSING_HTTP_EVENT_HEADER, data: { header } });
    this.name = 'MissingHttpEventHeaderError';
  }
}

/** Upstream's AnomalousWebhookPayloadError: a payload the integration cannot recognize as its service's (400). */
export class AnomalousWebhookPayloadError extends ApiError {
  constructor(webhookName = '(unknown)') {
    super(`Unable to parse request: Did ${webhookName} generate this event?`, {
      code: ErrorCode.ANOMALOUS_WEBHOOK_PAYLOAD,
      data: { webhook_name: webhookName },
    });
    this.name = 'AnomalousWebhookPayloadError';
  }
}

/** Upstream's InvalidJSONError: a body that should be JSON and is not (400 INVALID_JSON). */
export class InvalidJsonError extends ApiError {
  constructor(message = 'Malformed JSON') {
    super(message, { code: ErrorCode.INVALID_JSON });
    this.name = 'InvalidJsonError';
  }
}
