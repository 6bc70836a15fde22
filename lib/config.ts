// Configuration comes from the environment, read at call time (never at module load) so that
// tests and scripts can point one process at different tables. Every value has a default that
// makes `npm start` work with no setup, except the secrets: those fall back to a known string only
// in development mode, which is on only when DEVELOPMENT_MODE=on says so (npm start and the tests
// set it; a deployed stage's serverless parameter developmentMode, off by default).
import { tmpdir } from 'node:os';

const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
};

/** Development mode: only DEVELOPMENT_MODE=on turns it on; unset, empty or any other value is off. */
const isDevelopment = (): boolean => process.env.DEVELOPMENT_MODE === 'on';

/**
 * A secret from the environment. Unset, it is the known string `development` in development mode,
 * and an error otherwise: a known secret would let anyone forge what it signs.
 */
const secretFromEnv = (name: string): string => {
  const secret = process.env[name];
  if (secret) return secret;
  if (isDevelopment()) return 'development';
  throw new Error(`${name} must be set (or DEVELOPMENT_MODE=on, for development only)`);
};

/** The default request timeout against a local endpoint (config.dynamodbRequestTimeoutMs). */
const LOCAL_REQUEST_TIMEOUT_MS = 10_000;

export const config = {
  /** A DynamoDB-compatible endpoint (DynamoDB Local); unset means the SDK's regional default. */
  dynamodbEndpoint: (): string | undefined => process.env.DYNAMODB_ENDPOINT || undefined,
  /**
   * Which of DynamoDB Local's databases the service uses when DYNAMODB_ENDPOINT is set: DynamoDB
   * Local without -sharedDb keeps one per access key, and the tests give each file its own
   * (test/helpers/tables.ts). Unset: the environment's access key, as for every other local service.
   */
  dynamodbLocalDatabase: (): string | undefined => process.env.DYNAMODB_LOCAL_DATABASE || undefined,
  region: (): string => process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
  /** Table names: TABLE_MAIN / TABLE_EVENTS, else TABLE_PREFIX + logical name. */
  tableName: (name: 'main' | 'events'): string =>
    process.env[`TABLE_${name.toUpperCase()}`] || `${process.env.TABLE_PREFIX ?? 'chat-local-'}${name}`,
  /** Development mode enables POST /dev_fetch_api_key and the known development secrets. Off unless DEVELOPMENT_MODE=on. */
  isDevelopment,
  /** The organization served to requests that do not name one (no credentials, no subdomain). */
  defaultRealm: (): string => process.env.DEFAULT_REALM || 'zulip',
  /** Connections the DynamoDB client may open at once (the SDK's default is 50). */
  dynamodbMaxSockets: (): number => intFromEnv('DYNAMODB_MAX_SOCKETS', 50),
  /**
   * The DynamoDB client's time limits and attempts (docs/architecture.md, "DynamoDB calls"): a new
   * connection must open within the connection timeout, an attempt must be answered within the
   * request timeout, and a call makes at most this many attempts, so that a call that is never
   * answered fails well inside a function's 10 s. Against a local endpoint (DynamoDB Local, a JVM
   * sharing the machine's cores with the tests, where creating a table can take seconds) an
   * attempt may take up to 10 s by default, so that slowness is not taken for a lost answer.
   */
  dynamodbConnectionTimeoutMs: (): number => intFromEnv('DYNAMODB_CONNECTION_TIMEOUT_MS', 1000),
  dynamodbRequestTimeoutMs: (): number =>
    intFromEnv('DYNAMODB_REQUEST_TIMEOUT_MS', process.env.DYNAMODB_ENDPOINT ? LOCAL_REQUEST_TIMEOUT_MS : 1500),
  dynamodbMaxAttempts: (): number => Math.max(1, Math.floor(intFromEnv('DYNAMODB_MAX_ATTEMPTS', 3))),
  /**
   * What one POST /streams/{id}/delete_topic request deletes at most before it answers
   * `complete: false` (the client repeats it): messages, and milliseconds of work, both well inside
   * a function's 10 s (upstream deletes in batches of 100 until 50 s have passed).
   */
  deleteTopicMaxMessages: (): number => intFromEnv('DELETE_TOPIC_MAX_MESSAGES', 1000),
  deleteTopicBudgetMs: (): number => intFromEnv('DELETE_TOPIC_BUDGET_MS', 5000),
  /** Upper bound of one GET /events long-poll, well inside API Gateway's 30 s. */
  longPollSeconds: (): number => intFromEnv('EVENTS_LONGPOLL_SECONDS', 20),
  /**
   * Presence changes are sent as events only in organizations of at most this many active users
   * (upstream's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS); larger ones' clients poll presence.
   */
  presenceEventUserLimit: (): number => intFromEnv('PRESENCE_EVENT_USER_LIMIT', 100),
  /**
   * How long a process may reuse an account it found by API key for GET /events (so a deactivation
   * or a new key takes effect there within this bound); 0 turns the cache off.
   */
  authCacheMs: (): number => intFromEnv('AUTH_CACHE_MS', 3000),
  /** The fastest and slowest interval between two checks of a waiting long-poll. */
  pollMinIntervalMs: (): number => intFromEnv('EVENTS_POLL_MIN_INTERVAL_MS', 25),
  pollMaxIntervalMs: (): number => intFromEnv('EVENTS_POLL_MAX_INTERVAL_MS', 900),
  /**
   * Copies of each organization's event stream: an organization-wide event is appended to every
   * shard, and a queue reads one (by its owner's id), so no stream item is read by more than
   * 1/shards of the organization's waiting clients. Only raise it: a queue keeps the shard it started on.
   */
  realmStreamShards: (): number => Math.max(1, Math.floor(intFromEnv('EVENTS_REALM_SHARDS', 1))),
  /** Requests to `<subdomain>.<rootDomain>` address that organization. */
  rootDomain: (): string => (process.env.ROOT_DOMAIN || 'localhost').toLowerCase(),
  /** One JSON log line per request, unless REQUEST_LOG=off (the tests). */
  requestLog: (): boolean => process.env.REQUEST_LOG !== 'off',
  /**
   * The fraction of quiet successes (idle long polls) that still get their request line: enough to
   * see them in the logs, not a line per poll (REQUEST_LOG_QUIET_SAMPLE, from 0 to 1; default 1%).
   */
  quietRequestLogSample: (): number => {
    const value = Number(process.env.REQUEST_LOG_QUIET_SAMPLE ?? '0.01');
    return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.01;
  },
  /** The service's public base URL: the default organization's URL; others are at its subdomains. */
  externalUrl: (): string => process.env.EXTERNAL_URL || 'http://localhost:3000',
  /** The onboarding video shown to new users; unset means none, which disables the video. */
  navigationTourVideoUrl: (): string | null => process.env.NAVIGATION_TOUR_VIDEO_URL || null,
  /** Where clients fetch the emoji data set; unset means the organization's own static path. */
  serverEmojiDataUrl: (): string | undefined => process.env.SERVER_EMOJI_DATA_URL || undefined,
  /**
   * The scrypt cost of every password hash made (lib/passwords.ts): PASSWORD_SCRYPT_N (a power of
   * two), PASSWORD_SCRYPT_R and PASSWORD_SCRYPT_P. Unset: OWASP's recommendation, N = 2^17, r = 8,
   * p = 1 (128 MiB and about 0.64 s of one core a hash). The tests set a cheap N (global setup).
   */
  passwordCost: (): { N: number; r: number; p: number } => {
    const N = intFromEnv('PASSWORD_SCRYPT_N', 2 ** 17);
    const r = intFromEnv('PASSWORD_SCRYPT_R', 8);
    const p = intFromEnv('PASSWORD_SCRYPT_P', 1);
    if (!Number.isInteger(Math.log2(N)) || N < 2) throw new Error(`PASSWORD_SCRYPT_N must be a power of two above 1, got ${N}`);
    if (!Number.isInteger(r) || r < 1 || !Number.isInteger(p) || p < 1)
      throw new Error(`PASSWORD_SCRYPT_R and PASSWORD_SCRYPT_P must be positive integers, got ${r} and ${p}`);
    return { N, r, p };
  },
  /** The secret the development data set's passwords are derived from (lib/passwords.ts devPassword). */
  devPasswordSecret: (): string => secretFromEnv('DEV_PASSWORD_SECRET'),
  /**
   * The web app's built files (webapp/build.ts writes them, with manifest.json): WEBAPP_DIST, else
   * webapp/dist under the function's root (LAMBDA_TASK_ROOT in Lambda, whose package holds them;
   * the working directory locally).
   */
  webappDist: (): string => process.env.WEBAPP_DIST || `${process.env.LAMBDA_TASK_ROOT || process.cwd()}/webapp/dist`,
  /**
   * What every route's Lambda function is named after, `<service>-<stage>-` (serverless.yml), so
   * that a function can call another route's (lib/store/functions.ts). Unset: routes run in this
   * process (the handler tests).
   */
  functionPrefix: (): string | undefined => process.env.FUNCTION_PREFIX || undefined,
  /** An S3-compatible endpoint (the local store); unset means the SDK's regional S3. */
  s3Endpoint: (): string | undefined => process.env.S3_ENDPOINT || undefined,
  /** An SES-compatible endpoint (the local store, aws-ses-v2-local); unset means the SDK's regional SES. */
  sesEndpoint: (): string | undefined => process.env.SES_ENDPOINT || undefined,
  /**
   * The address emails are sent from (EMAIL_SENDER; in a deployment an identity SES has verified).
   * Unset: noreply@ the service's host, as upstream's noreply address.
   */
  emailSender: (): string => process.env.EMAIL_SENDER || `noreply@${new URL(config.externalUrl()).hostname}`,
  /**
   * The email gateway's address pattern (upstream's EMAIL_GATEWAY_PATTERN, `%s` standing for the
   * local part): a missed-message email's Reply-To, which SES receiving (serverless.yml
   * IncomingEmailRule) or `npm run deliver-email` hands to the service. EMAIL_GATEWAY_PATTERN
   * when set (`off`: no reply addresses; emails say replies are not accepted); else, deployed,
   * `%s@` EMAIL_GATEWAY_DOMAIN (set by serverless.yml; none when empty); else `%s@` the service's host.
   */
  emailGatewayPattern: (): string | undefined => {
    const domain = process.env.EMAIL_GATEWAY_DOMAIN;
    const fallback = domain === undefined ? `%s@${new URL(config.externalUrl()).hostname}` : domain ? `%s@${domain}` : 'off';
    const pattern = process.env.EMAIL_GATEWAY_PATTERN || fallback;
    return pattern === 'off' ? undefined : pattern;
  },
  /** The bucket SES receiving stores incoming emails in (INCOMING_EMAIL_BUCKET; deployed only). */
  incomingEmailBucket: (): string => process.env.INCOMING_EMAIL_BUCKET || 'chat-local-incoming-email',
  /**
   * The Lambda function of a background job (lib/store/jobs.ts): MESSAGE_FANOUT_FUNCTION for
   * messageFanout, MESSAGE_MOVE_FUNCTION for messageMove. Unset: the job runs in this process (the
   * handler tests and the benchmarks).
   */
  jobFunction: (
    name:
      'messageFanout' | 'messageMove' | 'outgoingWebhook' | 'push' | 'scheduledDelivery' | 'realmExport' | 'realmImport' | 'sendDigests',
  ): string | undefined =>
    ({
      messageFanout: process.env.MESSAGE_FANOUT_FUNCTION,
      messageMove: process.env.MESSAGE_MOVE_FUNCTION,
      outgoingWebhook: process.env.OUTGOING_WEBHOOK_FUNCTION,
      push: process.env.PUSH_FUNCTION,
      scheduledDelivery: process.env.SCHEDULED_DELIVERY_FUNCTION,
      realmExport: process.env.REALM_EXPORT_FUNCTION,
      realmImport: process.env.REALM_IMPORT_FUNCTION,
      sendDigests: process.env.SEND_DIGESTS_FUNCTION,
    })[name] || undefined,
  /**
   * How long an outgoing webhook's request to its bot's service may take, answer included
   * (OUTGOING_WEBHOOK_TIMEOUT_SECONDS; upstream's OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10).
   */
  outgoingWebhookTimeoutSeconds: (): number => Number(process.env.OUTGOING_WEBHOOK_TIMEOUT_SECONDS) || 10,
  /**
   * Whether outgoing webhooks may reach loopback, private and link-local addresses
   * (OUTGOING_WEBHOOK_PRIVATE_NETWORKS=allow): never in a deployment, where they would reach the
   * function's own runtime and the account's internal services; `npm start` and the tests allow
   * them, their bots running on the same machine.
   */
  outgoingWebhookPrivateNetworks: (): boolean => process.env.OUTGOING_WEBHOOK_PRIVATE_NETWORKS === 'allow',
  /**
   * EventBridge Scheduler, which starts a job at a stated time (lib/store/schedules.ts): the role
   * it assumes to invoke the job's function (SCHEDULER_ROLE_ARN), the schedule group
   * (SCHEDULE_GROUP, else `default`), the ARN prefix of the functions (FUNCTION_ARN_PREFIX, the
   * function's name follows) and an endpoint (SCHEDULER_ENDPOINT: the local runner's stand-in).
   * Neither role nor endpoint: this process keeps the schedules and starts their jobs itself (the handler tests).
   */
  scheduler: (): { roleArn: string; group: string; functionArnPrefix: string; endpoint: string | undefined } | undefined => {
    const roleArn = process.env.SCHEDULER_ROLE_ARN;
    if (!roleArn && !process.env.SCHEDULER_ENDPOINT) return undefined;
    return {
      roleArn: roleArn || 'arn:aws:iam::000000000000:role/local-scheduler',
      group: process.env.SCHEDULE_GROUP || 'default',
      functionArnPrefix: process.env.FUNCTION_ARN_PREFIX || '',
      endpoint: process.env.SCHEDULER_ENDPOINT || undefined,
    };
  },
  /**
   * The mobile push notification service (upstream's push bouncer, its ZULIP_SERVICES_URL, and this
   * server's registration there, ZULIP_ORG_ID and ZULIP_ORG_KEY): push notifications are configured
   * only when all three are set; otherwise POST /mobile_push/register answers upstream's
   * PUSH_SERVICE_NOT_CONFIGURED and no notification is sent.
   */
  pushBouncer: (): { url: string; orgId: string; orgKey: string } | undefined => {
    const url = process.env.PUSH_BOUNCER_URL;
    const orgId = process.env.ZULIP_ORG_ID;
    const orgKey = process.env.ZULIP_ORG_KEY;
    return url && orgId && orgKey ? { url: url.replace(/\/+$/, ''), orgId, orgKey } : undefined;
  },
  /** A contact address the bouncer keeps for this server (upstream's ZULIP_ADMINISTRATOR). */
  pushContactEmail: (): string => process.env.PUSH_CONTACT_EMAIL || `admin@${new URL(config.externalUrl()).hostname}`,
  /**
   * Messages up to which a topic move (PATCH /messages/{message_id}) moves every message before
   * answering; of a larger one the request moves this many and leaves the rest to its messageMove
   * job (lib/actions/messages/move.ts). Sized by `npm run bench admin` to keep the request well
   * inside its 10 s Lambda timeout.
   */
  moveInlineMessages: (): number => Math.max(1, Math.floor(intFromEnv('MOVE_INLINE_MESSAGES', 25))),
  /** Messages one run of the messageMove job moves before starting the next run (inside its 120 s timeout). */
  moveJobMessages: (): number => Math.max(1, Math.floor(intFromEnv('MOVE_JOB_MESSAGES', 1000))),
  /**
   * Users one run of the sendDigests job looks at (DIGEST_USERS_PER_RUN) before starting the run
   * of the next page, so that no run goes through a whole organization within its 300 s timeout.
   */
  digestUsersPerRun: (): number => Math.max(1, Math.floor(intFromEnv('DIGEST_USERS_PER_RUN', 100))),
  /**
   * Messages one run of the realmExport job reads (EXPORT_RUN_MESSAGES) before it leaves the rest
   * to its next run, so that a large organization's export never meets the function's time limit
   * (lib/actions/organization/export-job.ts; sized by `npm run bench export`).
   */
  exportRunMessages: (): number => Math.max(1, Math.floor(intFromEnv('EXPORT_RUN_MESSAGES', 20_000))),
  /**
   * Messages one run of the realmImport job writes (IMPORT_RUN_MESSAGES) before it checkpoints and
   * leaves the rest to its next run, besides its time budget (lib/actions/organization/import-run.ts).
   */
  importRunMessages: (): number => Math.max(1, Math.floor(intFromEnv('IMPORT_RUN_MESSAGES', 20_000))),
  /**
   * Where an import unpacks its archive (IMPORT_WORK_DIR), a folder per run removed when it ends:
   * the system's temporary folder by default (/tmp on Lambda).
   */
  importWorkDir: (): string => process.env.IMPORT_WORK_DIR || tmpdir(),
  /**
   * Recipients up to which a send writes every row and sends the events before answering; a
   * larger send leaves them to its messageFanout job (lib/actions/messages/delivery.ts).
   */
  messageInlineRecipients: (): number => Math.max(1, Math.floor(intFromEnv('MESSAGE_INLINE_RECIPIENTS', 100))),
  /** A Lambda-compatible endpoint for invoking jobs (serverless-offline's); unset means the regional one. */
  lambdaEndpoint: (): string | undefined => process.env.LAMBDA_ENDPOINT || undefined,
  /** The bucket uploaded files live in. */
  uploadsBucket: (): string => process.env.UPLOADS_BUCKET || 'chat-local-uploads',
  /** The secret that signs temporary file URLs (GET /user_uploads/temporary/...). */
  uploadUrlSecret: (): string => secretFromEnv('UPLOAD_URL_SECRET'),
  /**
   * Invitation emails an organization may send in a UTC day (upstream's max_invites, whose default
   * INVITES_DEFAULT_REALM_DAILY_MAX is 100): each costs an email from the service's address.
   */
  invitesDailyMax: (): number => Math.max(0, Math.floor(intFromEnv('INVITES_DAILY_MAX', 100))),
  /**
   * Password logins allowed per username in a window, as upstream's authenticate_by_username (a
   * successful login clears the username's count, so these are failures in a row).
   */
  loginFailureLimit: (): { windowSeconds: number; attempts: number } => ({
    windowSeconds: intFromEnv('LOGIN_FAILURE_WINDOW_SECONDS', 1800),
    attempts: intFromEnv('LOGIN_FAILURE_ATTEMPTS', 5),
  }),
  /**
   * Password reset emails sent per address in a window, as upstream's password_reset_form_by_email
   * rule (its first window: 2 an hour); past it the form still answers "check your email" and sends nothing.
   */
  passwordResetEmailLimit: (): { windowSeconds: number; attempts: number } => ({
    windowSeconds: intFromEnv('PASSWORD_RESET_EMAIL_WINDOW_SECONDS', 3600),
    attempts: intFromEnv('PASSWORD_RESET_EMAIL_ATTEMPTS', 2),
  }),
  /** Sign-up confirmation emails sent per address in a window (/register/: the password reset form's rule, 2 an hour); past it the form answers the same and sends nothing. */
  signUpEmailLimit: (): { windowSeconds: number; attempts: number } => ({
    windowSeconds: intFromEnv('SIGN_UP_EMAIL_WINDOW_SECONDS', 3600),
    attempts: intFromEnv('SIGN_UP_EMAIL_ATTEMPTS', 2),
  }),
  /** Password logins (POST /fetch_api_key) allowed per client address in a window: upstream's api_by_ip rule. */
  loginAddressLimit: (): { windowSeconds: number; attempts: number } => ({
    windowSeconds: intFromEnv('LOGIN_ADDRESS_WINDOW_SECONDS', 60),
    attempts: intFromEnv('LOGIN_ADDRESS_ATTEMPTS', 100),
  }),
  /**
   * The search database (lib/search/client.ts), reached through the RDS Data API: the Aurora
   * cluster's ARN, its secret's ARN and the database; `endpoint` is a Data API-compatible endpoint
   * (the local PGlite stand-in, scripts/local-search.ts), unset in AWS. `schema` holds the tables:
   * each test file gets its own. Locally the ARNs are placeholders the stand-in ignores.
   */
  searchDatabase: (): { endpoint?: string; resourceArn: string; secretArn: string; database: string; schema: string } => ({
    ...(process.env.SEARCH_ENDPOINT ? { endpoint: process.env.SEARCH_ENDPOINT } : {}),
    resourceArn: process.env.SEARCH_CLUSTER_ARN || 'arn:aws:rds:us-east-1:000000000000:cluster:local-search',
    secretArn: process.env.SEARCH_SECRET_ARN || 'arn:aws:secretsmanager:us-east-1:000000000000:secret:local-search',
    database: process.env.SEARCH_DATABASE || 'chat',
    schema: process.env.SEARCH_SCHEMA || 'search',
  }),
  /**
   * How long a search keeps retrying a database that is resuming from its pause before it answers
   * 503 (lib/search/client.ts): under the route functions' 10 s, with room for the rest of the request.
   */
  searchResumeWaitMs: (): number => Math.max(0, intFromEnv('SEARCH_RESUME_WAIT_MS', 7000)),
} as const;

/** The server's identity, returned by POST /register under both naming schemes. */
export const SERVICE_VERSION = {
  featureLevel: 485,
  version: '11.0-serverless',
  mergeBase: '11.0-serverless',
} as const;
