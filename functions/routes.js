// The route table: every functions/<domain>/routes.json, merged and checked. serverless.yml builds
// its functions from it (`${file(./functions/routes.js):functions}`); `npm run docs:routes` writes
// lib/http/route-functions.json from it, which the catch-all fallback reads to tell a wrong method
// (405) from an unknown path (404).
// Plain CommonJS, so that the Serverless Framework, scripts and tests can all load it.
const fs = require('node:fs');
const path = require('node:path');
const capacity = require('../capacity/index.js');
const edge = require('../edge/index.js');

const API_PREFIX = '/api/v1';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const NAME_PATTERN = /^[a-z][A-Za-z0-9]*$/;
// The last segment may be greedy (`{filename+}`: the rest of the path, slashes included). A page at
// the site root may end with a slash, as upstream's pages do (`/login/`, `/join/{confirmation_key}/`).
const PATH_PATTERN = /^(\/([A-Za-z0-9_.-]+|\{[a-z_]+\}))*(\/([A-Za-z0-9_.-]+|\{[a-z_]+\+?\}))$/;
const PAGE_PATH_PATTERN = /^(\/([A-Za-z0-9_.-]+|\{[a-z_]+\}))*\/$/;

/** Lambda timeout of a route, in seconds; GET /events must outlast its long-poll bound. */
const DEFAULT_TIMEOUT = 10;
const API_GATEWAY_LIMIT = 30;
const FALLBACK = 'routeFallback';
/** The site's catch-all: every path outside /api/v1/ that no route serves (functions/fallback/not-found.ts). */
const PAGE_FALLBACK = 'pageFallback';
/**
 * The fields a route may have. Optional: `memorySize` (MB, the function's measured need; default
 * the provider's) and `longPoll` (true: the function waits up to the long-poll bound, so its
 * timeout is the bound plus 5 s, and its concurrency is capped by the eventsMaxConcurrency stage
 * parameter), `root` (true: served at the site root instead of under /api/v1, as upstream serves
 * uploaded files at /user_uploads/...; the fallback does not list it) and `bucket` ("read",
 * "write" or "delete": the function gets the uploads bucket's role, which may GetObject,
 * PutObject, or DeleteObject, on it;
 * every other function has no S3 access at all), `throttle` (`{"rate","burst"}`: API Gateway's
 * request limit of this route, requests a second and burst, instead of the stage's default, the
 * throttleRate and throttleBurst parameters of serverless.yml), `timeout` (seconds, up to API Gateway's
 * 30 less one: a rare request that does many writes, as creating an organization), `webapp` (true: the
 * function's package holds the web app's built files, webapp/dist: the app's page and /static/).
 * Anything else is refused, so that no field is silently ignored.
 */
const ROUTE_FIELDS = ['name', 'method', 'path', 'handler', 'memorySize', 'longPoll', 'root', 'bucket', 'throttle', 'timeout', 'webapp'];
/** What a `webapp` route's package holds besides its bundle (webapp/build.ts writes it; the webapp plugin builds it first). */
const WEBAPP_PATTERNS = ['webapp/dist/**'];
const BUCKET_ROLES = { read: 'UploadsReadRole', write: 'UploadsWriteRole', delete: 'UploadsDeleteRole' };

const isThrottle = (t) =>
  typeof t === 'object' &&
  t !== null &&
  Object.keys(t).sort().join() === 'burst,rate' &&
  typeof t.rate === 'number' &&
  t.rate > 0 &&
  Number.isInteger(t.burst) &&
  t.burst > 0;

/** Every route of every domain, checked, sorted by path then method. */
const loadRoutes = (functionsDir = __dirname) => {
  const routes = [];
  for (const entry of fs.readdirSync(functionsDir, { withFileTypes: true })) {
    const file = path.join(functionsDir, entry.name, 'routes.json');
    if (!entry.isDirectory() || !fs.existsSync(file)) continue;
    const list = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Array.isArray(list)) throw new Error(`${file}: expected a JSON array of routes`);
    for (const route of list) routes.push({ ...route, file });
  }
  const seen = new Map();
  for (const route of routes) {
    const where = `${path.relative(process.cwd(), route.file)}: ${route.name ?? JSON.stringify(route)}`;
    if (typeof route.name !== 'string' || !NAME_PATTERN.test(route.name) || route.name === FALLBACK || route.name === PAGE_FALLBACK) {
      throw new Error(`${where}: name must be camelCase (and not ${FALLBACK} or ${PAGE_FALLBACK})`);
    }
    const unknown = Object.keys(route).filter((key) => key !== 'file' && !ROUTE_FIELDS.includes(key));
    if (unknown.length > 0)
      throw new Error(`${where}: unknown field(s) ${unknown.join(', ')}; a route has only ${ROUTE_FIELDS.join(', ')}`);
    if (!METHODS.includes(route.method)) throw new Error(`${where}: method must be one of ${METHODS.join(', ')}`);
    const pathOk = PATH_PATTERN.test(route.path) || (route.root === true && PAGE_PATH_PATTERN.test(route.path));
    if (typeof route.path !== 'string' || !pathOk || route.path.startsWith(API_PREFIX)) {
      throw new Error(`${where}: path must look like /drafts/{draft_id}, without ${API_PREFIX}`);
    }
    if (route.memorySize !== undefined && !(Number.isInteger(route.memorySize) && route.memorySize >= 128 && route.memorySize <= 10240)) {
      throw new Error(`${where}: memorySize must be a whole number of MB from 128 to 10240`);
    }
    if (route.timeout !== undefined && !(Number.isInteger(route.timeout) && route.timeout >= 1 && route.timeout < API_GATEWAY_LIMIT)) {
      throw new Error(`${where}: timeout must be a whole number of seconds from 1 to ${API_GATEWAY_LIMIT - 1}`);
    }
    if (route.longPoll !== undefined && route.longPoll !== true) throw new Error(`${where}: longPoll must be true or absent`);
    if (route.root !== undefined && route.root !== true) throw new Error(`${where}: root must be true or absent`);
    if (route.webapp !== undefined && route.webapp !== true) throw new Error(`${where}: webapp must be true or absent`);
    if (route.path.endsWith('/') && !route.root)
      throw new Error(`${where}: only a page at the site root (root: true) may end with a slash`);
    if (route.bucket !== undefined && !(route.bucket in BUCKET_ROLES))
      throw new Error(`${where}: bucket must be read, write, delete or absent`);
    if (route.throttle !== undefined && !isThrottle(route.throttle)) {
      throw new Error(`${where}: throttle must be {"rate": requests a second, "burst": a whole number of requests}, both positive`);
    }
    const [modulePath, exportName] = String(route.handler).split(/\.(?=[^.]+$)/);
    if (!exportName || !fs.existsSync(path.join(functionsDir, '..', `${modulePath}.ts`))) {
      throw new Error(`${where}: handler ${route.handler} is not <file without .ts>.<export>`);
    }
    const routeKey = `${route.method} ${route.path}${route.root ? ' (at the site root)' : ''}`;
    for (const key of [`name ${route.name}`, `route ${routeKey}`]) {
      if (seen.has(key)) throw new Error(`${where}: duplicate ${key} (also in ${seen.get(key)})`);
      seen.set(key, where);
    }
  }
  return routes
    .map(({ file: _file, ...route }) => route)
    .sort((a, b) => (a.path === b.path ? METHODS.indexOf(a.method) - METHODS.indexOf(b.method) : a.path < b.path ? -1 : 1));
};

/** The methods served at each path: `{"/drafts/{draft_id}": ["PATCH", "DELETE"]}`. */
const routeTable = (routes = loadRoutes()) => {
  const table = {};
  for (const route of routes) if (!route.root) (table[route.path] ??= []).push(route.method);
  return table;
};

/**
 * Background jobs (lib/store/jobs.ts): functions without a route, invoked asynchronously. Each gets
 * the environment variable config.jobFunction reads (serverless.yml sets it for every function) and
 * the timeout its worst case needs: messageFanout writes up to a channel's subscriber count of rows;
 * messageMove moves MOVE_JOB_MESSAGES (1,000) messages of a topic per run, about 30 s on DynamoDB
 * Local (`npm run bench admin`), then starts its next run.
 */
const JOBS = {
  messageFanout: {
    handler: 'functions/jobs/message-fanout.handler',
    timeout: 120,
    maximumRetryAttempts: 2,
    // A run that failed every attempt: kept for `npm run replay-deliveries`, and alarmed.
    destinations: { onFailure: { type: 'sqs', arn: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } } },
  },
  messageMove: {
    handler: 'functions/jobs/message-move.handler',
    timeout: 120,
    maximumRetryAttempts: 2,
    // A run that failed every attempt leaves the rest of a topic unmoved: kept for `npm run replay-deliveries`, and alarmed.
    destinations: { onFailure: { type: 'sqs', arn: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } } },
  },
  // Posts a message to an outgoing webhook bot's service (one request, up to
  // OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10) and sends its answer; a try again is a new invocation.
  outgoingWebhook: {
    handler: 'functions/jobs/outgoing-webhook.handler',
    timeout: 30,
    maximumRetryAttempts: 2,
  },
  // Talks to the push bouncer (its requests wait up to 15 s each); a notification that failed
  // every attempt is stale by then, so it is dropped (logged), as upstream's worker drops it.
  push: {
    handler: 'functions/jobs/push.handler',
    timeout: 60,
    maximumRetryAttempts: 2,
  },
  // Writes an organization's data export (lib/actions/organization/export-job.ts): each run reads
  // EXPORT_RUN_MESSAGES messages, keeps its files in S3 and starts the next run; the last writes the
  // archive. A run that failed every attempt marks the export failed (upstream's "failed" status).
  realmExport: {
    handler: 'functions/jobs/realm-export.handler',
    timeout: 300,
    memorySize: 1024,
    role: 'UploadsExportRole',
    maximumRetryAttempts: 2,
  },
  // Imports an organization from an export archive in the uploads bucket
  // (lib/actions/organization/import-job.ts), started by an operator (`npm run import-realm --
  // s3://…`), and by each of its runs for the next (import-run.ts: a run writes for at most half
  // its timeout, then hands on its checkpoint): Lambda's longest timeout, memory for the files it
  // holds, and /tmp for the unpacked archive. A refusal is logged and not retried; a failed run is
  // retried from its checkpoint, and its third failure removes what every run wrote.
  realmImport: {
    handler: 'functions/jobs/realm-import.handler',
    timeout: 900,
    memorySize: 2048,
    ephemeralStorageSize: 10240,
    role: 'UploadsImportRole',
    maximumRetryAttempts: 2,
  },
  // Started by a scheduled message's one-time EventBridge Scheduler schedule (lib/store/schedules.ts):
  // checks and sends one message, as a send does.
  scheduledDelivery: {
    handler: 'functions/jobs/scheduled-delivery.handler',
    timeout: 30,
    maximumRetryAttempts: 2,
  },
  // Weekly digest emails (lib/actions/digests/send.ts): started once a day by EventBridge
  // Scheduler's DigestSchedule (serverless.yml), which starts one run per organization sending
  // digests today; each run emails a page of DIGEST_USERS_PER_RUN (100) users (lib/config.ts), then starts the next.
  sendDigests: {
    handler: 'functions/jobs/send-digests.handler',
    timeout: 300,
    maximumRetryAttempts: 2,
  },
};

/**
 * The email gateway (lib/actions/missed-emails/reply-by-email.ts): invoked by SES receiving's
 * receipt rule (serverless.yml IncomingEmailRule) for each email to the gateway's domain, which
 * the rule has stored in the incoming-email bucket first; Lambda retries a failed run twice.
 */
const EMAIL_GATEWAY = {
  receiveEmail: {
    handler: 'functions/jobs/receive-email.handler',
    // Reads the stored emails: its own role (buckets/index.js), which the other functions lack.
    role: 'IncomingEmailRole',
    timeout: 30,
    maximumRetryAttempts: 2,
  },
};

/**
 * Functions fed by a table's stream. deliveryRecovery finishes the deliveries of sends whose
 * request died before handing them on (lib/actions/messages/delivery.ts): only new messages that
 * have a pending delivery reach it (the filter), in batches collected for up to 5 s; it waits out
 * the sending request's lease (15 s) itself, hence its timeout. A failing batch is retried,
 * halved, up to 10 times, then its place in the stream goes to the dead-letter queue (kept 14
 * days; the stream keeps records 24 hours, the time an operator has to replay it).
 */
/**
 * A function fed by the main table's stream: batches of up to 100 records collected for at most
 * `batchWindow` seconds, only those `filterPatterns` admit; a failing batch is retried, halved, up
 * to 10 times, then its place in the stream goes to the dead-letter queue.
 */
const mainStreamConsumer = (handler, batchWindow, filterPatterns) => ({
  handler,
  timeout: 60,
  events: [
    {
      stream: {
        type: 'dynamodb',
        arn: { 'Fn::GetAtt': ['MainTable', 'StreamArn'] },
        startingPosition: 'LATEST',
        batchSize: 100,
        batchWindow,
        maximumRetryAttempts: 10,
        bisectBatchOnFunctionError: true,
        destinations: { onFailure: { type: 'sqs', arn: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } } },
        filterPatterns,
      },
    },
  ],
});

const STREAM_CONSUMERS = {
  deliveryRecovery: mainStreamConsumer('functions/jobs/delivery-recovery.handler', 5, [
    { eventName: ['INSERT'], dynamodb: { NewImage: { pendingDelivery: { M: { owner: { S: [{ exists: true }] } } } } } },
  ]),
  // The search index follows the messages (lib/actions/messages/search-index.ts): every insert,
  // change and removal of a message item (MSG#<realm>#<id>, MSG), collected for at most 1 s, so a
  // message is searchable about a second after it is sent.
  searchIndex: mainStreamConsumer('functions/jobs/search-index.handler', 1, [
    { dynamodb: { Keys: { pk: { S: [{ prefix: 'MSG#' }] }, sk: { S: ['MSG'] } } } },
  ]),
};

/**
 * The waiting clients one shard of an organization's event stream serves: each reads its shard's
 * head up to 10 times in the first second after an event (the measured peak, `npm run bench
 * capacity`), and 100 of them keep the head under 1,000 reads a second.
 */
const WAITING_CLIENTS_PER_SHARD = 100;

/**
 * The long-poll function's logging: Lambda's own START, END and REPORT lines are INFO lines of
 * its JSON log format, so at a WARN system level an idle poll writes no line at all (the handler
 * logs only a sample of idle polls: lib/http/api-handler.ts); the handler's own lines, errors
 * included, stay at INFO. Every other function keeps Lambda's plain-text default.
 */
const QUIET_LOGS = { logFormat: 'JSON', applicationLogLevel: 'INFO', systemLogLevel: 'WARN' };

/**
 * A long-poll route (GET /events) waits up to the bound, so its Lambda gets 5 s more: under API
 * Gateway's 30 s behind the HTTP API; behind the cloudfront edge (edge/index.js), where the bound
 * is upstream's heartbeat interval, under CloudFront's 60 s.
 */
const timeoutOf = (route, longPollSeconds) => (route.longPoll ? longPollSeconds + 5 : (route.timeout ?? DEFAULT_TIMEOUT));

/**
 * The Serverless `functions` section: one function per route, plus the catch-all fallback.
 * The long-poll bound is the `eventsLongPollSeconds` parameter of serverless.yml, and the cap on
 * waiting clients its `eventsMaxConcurrency` parameter. Where the long-poll route runs is its
 * `eventsCapacity` parameter (capacity/index.js): on standard Lambda the cap is the route's
 * reserved concurrency, one execution per waiting client; on managed instances, its execution
 * environments (capacity/index.js managedEnvironments), each holding many.
 */
const functions = async ({ resolveVariable }) => {
  // The bound: the eventsLongPollSeconds parameter, or behind the cloudfront edge upstream's heartbeat interval.
  const longPollSeconds = await edge.longPollSeconds({ resolveVariable });
  const maxWaiting = Number(await resolveVariable('param:eventsMaxConcurrency'));
  if (!Number.isInteger(maxWaiting) || maxWaiting < 1)
    throw new Error(`eventsMaxConcurrency must be a whole number of executions, got ${maxWaiting}`);
  const behindApi = (await edge.edgeMode({ resolveVariable })) === 'api';
  if (!Number.isFinite(longPollSeconds) || longPollSeconds <= 0 || (behindApi && longPollSeconds + 5 >= API_GATEWAY_LIMIT)) {
    throw new Error(`eventsLongPollSeconds must be a number of seconds below ${API_GATEWAY_LIMIT - 5}, got ${longPollSeconds}`);
  }
  const managed = (await capacity.capacityMode({ resolveVariable })) === 'managed';
  const shards = Number(await resolveVariable('param:eventsRealmShards'));
  // On managed instances one reader per execution environment reads a shard head, whatever the
  // polls it holds: managedEnvironments refuses more environments than a head takes. The shard rule
  // stays in both modes: every woken poll still reads the new stream items of its shard itself.
  if (managed) capacity.managedEnvironments(maxWaiting);
  const fewestShards = Math.ceil(maxWaiting / WAITING_CLIENTS_PER_SHARD);
  if (!Number.isInteger(shards) || shards < fewestShards) {
    throw new Error(
      `eventsRealmShards must be at least ${fewestShards} for ${maxWaiting} waiting clients ` +
        `(${WAITING_CLIENTS_PER_SHARD} per shard: docs/data-model.md, "Capacity"), got ${shards}`,
    );
  }
  const routes = loadRoutes();
  const out = {};
  for (const route of routes) {
    const fullPath = `${route.root ? '' : API_PREFIX}${route.path}`;
    const events = [{ httpApi: { method: route.method, path: fullPath } }];
    // HEAD is served wherever GET is, as upstream does.
    if (route.method === 'GET') events.push({ httpApi: { method: 'HEAD', path: fullPath } });
    out[route.name] = {
      handler: route.handler,
      ...(route.bucket ? { role: BUCKET_ROLES[route.bucket] } : {}),
      timeout: timeoutOf(route, longPollSeconds),
      ...(route.memorySize ? { memorySize: route.memorySize } : {}),
      ...(route.webapp ? { package: { patterns: WEBAPP_PATTERNS } } : {}),
      // A long-poll holds one execution per waiting client on standard Lambda: capped, so the other
      // routes keep theirs. On managed instances it runs on the capacity provider instead.
      ...(route.longPoll ? (managed ? capacity.managedFunction() : { reservedConcurrency: maxWaiting }) : {}),
      ...(route.longPoll ? { logs: QUIET_LOGS } : {}),
      events,
    };
  }
  Object.assign(out, JOBS, EMAIL_GATEWAY, STREAM_CONSUMERS);
  out[FALLBACK] = {
    handler: 'functions/fallback/unmatched.handler',
    timeout: DEFAULT_TIMEOUT,
    events: [{ httpApi: { method: '*', path: `${API_PREFIX}/{proxy+}` } }],
  };
  // Without it API Gateway answers its own `{"message":"Not Found"}` (and serverless-offline its list
  // of every route) for a browser's /favicon.ico or a mistyped page.
  out[PAGE_FALLBACK] = {
    handler: 'functions/fallback/not-found.handler',
    timeout: DEFAULT_TIMEOUT,
    events: [{ httpApi: { method: '*', path: '/{proxy+}' } }],
  };
  return out;
};

/** API Gateway's name of a route key's resource (osls's naming.getHttpApiRouteLogicalId). */
const httpApiRouteLogicalId = (routeKey) =>
  `HttpApiRoute${routeKey
    .split('/')
    .map((part) => {
      const word = part
        .toLowerCase()
        .replace(/-/g, 'Dash')
        .replace(/\{(.*)\}/g, '$1Var')
        .replace(/[^0-9A-Za-z]/g, '');
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join('')}`;

/**
 * API Gateway's request limits (serverless.yml `resources.extensions`, as osls's httpApi has no
 * throttling setting): the stage's default for every route, from the throttleRate and
 * throttleBurst parameters, and a route's own `throttle`. A route's setting needs the route to
 * exist first, hence the DependsOn. Requests beyond a limit get API Gateway's own 429.
 */
/**
 * The web app's `/json/…` (upstream's session-authenticated twin of every `/api/v1/…` route): one
 * route, `ANY /json/{proxy+}`, whose HTTP proxy integration sends the request on to the same API's
 * `/api/v1/{proxy}`, marked with JSON_ROUTE_HEADER (lib/http/route-table.ts, the same name: the
 * deploy test checks) and with the browser's Host in X-Forwarded-Host, so the function that serves
 * the `/api/v1/` route serves it by its session (lib/http/session.ts). Declaring every route twice
 * would pass API Gateway's 300 routes per API (217 already, HEAD included) and add as many
 * CloudFormation resources; the hop costs one more API Gateway request per /json/ request
 * (docs/architecture.md, "The web app"). The local gateway does the same (scripts/local-gateway.ts).
 */
const JSON_ROUTE_HEADER = 'x-zulip-json-route';
const jsonRouteResources = async ({ resolveVariable }) => ({
  JsonRouteIntegration: {
    Type: 'AWS::ApiGatewayV2::Integration',
    Properties: {
      ApiId: { Ref: 'HttpApi' },
      IntegrationType: 'HTTP_PROXY',
      IntegrationMethod: 'ANY',
      IntegrationUri: {
        'Fn::Join': [
          '',
          [
            'https://',
            { Ref: 'HttpApi' },
            '.execute-api.',
            { Ref: 'AWS::Region' },
            '.',
            { Ref: 'AWS::URLSuffix' },
            `${API_PREFIX}/{proxy}`,
          ],
        ],
      },
      PayloadFormatVersion: '1.0',
      TimeoutInMillis: API_GATEWAY_LIMIT * 1000,
      RequestParameters: {
        [`overwrite:header.${JSON_ROUTE_HEADER}`]: '1',
        'overwrite:header.x-forwarded-host': edge.jsonHopHost(await edge.edgeMode({ resolveVariable })),
      },
    },
  },
  JsonRoute: {
    Type: 'AWS::ApiGatewayV2::Route',
    Properties: {
      ApiId: { Ref: 'HttpApi' },
      RouteKey: 'ANY /json/{proxy+}',
      Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'JsonRouteIntegration' }]] },
    },
  },
});

const stageThrottling = async ({ resolveVariable }) => {
  const rate = Number(await resolveVariable('param:throttleRate'));
  const burst = Number(await resolveVariable('param:throttleBurst'));
  if (!isThrottle({ rate, burst }))
    throw new Error(`throttleRate and throttleBurst must be positive (burst whole), got ${rate} and ${burst}`);
  const routeSettings = {};
  for (const route of loadRoutes().filter((r) => r.throttle)) {
    const routeKey = `${route.method} ${route.root ? '' : API_PREFIX}${route.path}`;
    routeSettings[routeKey] = { ThrottlingRateLimit: route.throttle.rate, ThrottlingBurstLimit: route.throttle.burst };
  }
  return {
    HttpApiStage: {
      Properties: {
        DefaultRouteSettings: { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst },
        ...(Object.keys(routeSettings).length > 0 ? { RouteSettings: routeSettings } : {}),
      },
      DependsOn: Object.keys(routeSettings).map(httpApiRouteLogicalId),
    },
  };
};

/**
 * The plugins: the web app's (webapp/serverless-plugin.js) builds the browser app before anything
 * is packaged, so its files are there to package; serverless-esbuild bundles each handler into runnable JS (for `package` and
 * `deploy`; `offline` then runs the bundles too). With CHAT_BUNDLE=false (what `npm start` and
 * the e2e tests set) serverless-offline loads the TypeScript handlers itself, through tsx. The
 * stacks plugin (stacks/serverless-plugin.js) splits the compiled template into nested stacks at
 * `package` and uploads them at `deploy`; it does nothing for `offline`.
 */
const plugins = () => [
  './webapp/serverless-plugin.js',
  './stacks/serverless-plugin.js',
  ...(process.env.CHAT_BUNDLE === 'false' ? [] : ['serverless-esbuild']),
  'serverless-offline',
];

module.exports = {
  API_PREFIX,
  BUCKET_ROLES,
  EMAIL_GATEWAY,
  JOBS,
  METHODS,
  STREAM_CONSUMERS,
  loadRoutes,
  routeTable,
  functions,
  jsonRouteResources,
  plugins,
  stageThrottling,
  timeoutOf,
};
