// What `npx serverless package` would deploy, checked without bundling every function: the
// configuration `serverless print` resolves (a function per routes.json entry plus the two fallbacks
// and the background functions, both tables of tables/, the Lambda role limited to them, the
// buckets' roles, the stage's parameters), and one function of each kind (an HTTP handler, a job,
// a stream consumer) bundled with the esbuild options serverless.yml gives serverless-esbuild and
// run on plain Node (no tsx), as Lambda runs it. The default stage is printed, as a plain
// `npx serverless deploy` would deploy it: without the development login. A stage without its
// upload URL secret is refused (settings/index.js).
//
// The compiled CloudFormation template of a full `serverless package` (every function bundled,
// minutes and gigabytes) is checked by `npm run test:package` (test/package/), which .ci/run runs
// after the suite.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { JOB_LEASE_MS, REQUEST_LEASE_MS } from '../../lib/actions/messages/delivery';
import { JSON_ROUTE_HEADER } from '../../lib/http/route-table';
import {
  BUCKET_ROUTES,
  JOB_NAMES,
  bundledDevLogin,
  ROOT,
  runBundled,
  serverless,
  STAGE,
  UPLOAD_URL_SECRET,
  type Resource,
} from '../helpers/serverless-cli';

type Fn = {
  handler: string;
  name: string;
  timeout: number;
  memorySize?: number;
  role?: string;
  environment?: Record<string, string>;
  maximumRetryAttempts?: number;
  destinations?: unknown;
  logs?: Record<string, string>;
  events: { httpApi?: { method: string; path: string }; stream?: Record<string, any> }[];
};
type Printed = {
  provider: { runtime: string; environment: Record<string, string>; iam: { role: { statements: any[] } } };
  functions: Record<string, Fn>;
  resources: { Resources: Record<string, Resource>; extensions: Record<string, any> };
  custom: { esbuild: Record<string, unknown> };
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JOBS, STREAM_CONSUMERS, loadRoutes } = require('../../functions/routes.js') as {
  JOBS: Record<string, { handler: string; timeout: number }>;
  STREAM_CONSUMERS: Record<string, { handler: string; timeout: number }>;
  loadRoutes: () => { name: string; method: string; path: string; handler: string; root?: true; bucket?: 'read' | 'write' | 'delete' }[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TABLES } = require('../../tables/index.js') as { TABLES: { name: string; properties: Record<string, any> }[] };

const capitalized = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;
/** A Lambda function's ARN as serverless.yml builds it from the function's name. */
const arn = (name: string) => ({
  'Fn::Join': [':', ['arn', { Ref: 'AWS::Partition' }, 'lambda', { Ref: 'AWS::Region' }, { Ref: 'AWS::AccountId' }, 'function', name]],
});
const DLQ = { type: 'sqs', arn: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } };

describe('the configuration npx serverless package deploys (serverless print)', () => {
  let printed: Printed;

  beforeAll(async () => {
    const result = await serverless(['print', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`, '--format', 'json']);
    expect(result).toMatchObject({ ok: true });
    printed = JSON.parse(result.output);
  }, 120000);

  const fn = (name: string): Fn => printed.functions[name];

  it('has a function for every route, with its handler and its HTTP API route, on Node 22', () => {
    const routes = loadRoutes();
    expect(routes.length).toBeGreaterThan(0);
    expect(printed.provider.runtime).toBe('nodejs22.x');
    for (const route of routes)
      expect({ route: route.name, handler: fn(route.name)?.handler }).toEqual({ route: route.name, handler: route.handler });
    const routeKeys = Object.values(printed.functions)
      .flatMap((f) => f.events.flatMap((e) => (e.httpApi ? [`${e.httpApi.method} ${e.httpApi.path}`] : [])))
      .sort();
    const full = (r: { path: string; root?: true }) => `${r.root ? '' : '/api/v1'}${r.path}`;
    const expected = routes.flatMap((r) => [`${r.method} ${full(r)}`, ...(r.method === 'GET' ? [`HEAD ${full(r)}`] : [])]);
    expect(routeKeys).toEqual([...expected, '* /api/v1/{proxy+}', '* /{proxy+}'].sort());
  });

  it("has each background job as a function without a route, named in every function's environment, that only it may be invoked as", () => {
    expect(Object.keys(JOBS)).toEqual(JOB_NAMES);
    const env = printed.provider.environment;
    for (const [name, variable] of [
      ['messageFanout', 'MESSAGE_FANOUT_FUNCTION'],
      ['messageMove', 'MESSAGE_MOVE_FUNCTION'],
      ['outgoingWebhook', 'OUTGOING_WEBHOOK_FUNCTION'],
      ['push', 'PUSH_FUNCTION'],
      ['realmExport', 'REALM_EXPORT_FUNCTION'],
      ['realmImport', 'REALM_IMPORT_FUNCTION'],
      ['scheduledDelivery', 'SCHEDULED_DELIVERY_FUNCTION'],
      ['sendDigests', 'SEND_DIGESTS_FUNCTION'],
    ]) {
      expect({ name, handler: fn(name).handler, events: fn(name).events, retries: fn(name).maximumRetryAttempts }).toEqual({
        name,
        handler: JOBS[name].handler,
        events: [],
        retries: 2,
      });
      expect(fn(name).name).toBe(`chat-${STAGE}-${name}`);
      expect(env[variable]).toBe(fn(name).name);
    }
    // Push notifications are configuration: not configured unless the stage's parameters say so.
    expect(env).toMatchObject({ PUSH_BOUNCER_URL: '', ZULIP_ORG_ID: '', ZULIP_ORG_KEY: '' });
    const invoke = printed.provider.iam.role.statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('lambda:')));
    expect(invoke).toEqual([
      {
        Effect: 'Allow',
        Action: ['lambda:InvokeFunction'],
        Resource: ['messageFanout', 'messageMove', 'outgoingWebhook', 'push'].map((n) => arn(fn(n).name)),
      },
      // A /json/ POST that tunnels another method goes to that route's function (lib/http/method-override.ts).
      { Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: [arn(`chat-${STAGE}-*`)] },
    ]);
    expect(env.FUNCTION_PREFIX).toBe(`chat-${STAGE}-`);
  });

  it('starts the sendDigests job once a day from a recurring EventBridge Scheduler schedule, whose role may invoke only that function', () => {
    const resources = printed.resources.Resources;
    expect(fn('sendDigests').timeout).toBe(300);
    expect(resources.DigestSchedule).toEqual({
      Type: 'AWS::Scheduler::Schedule',
      Properties: {
        Name: `chat-${STAGE}-digests`,
        Description: expect.any(String),
        ScheduleExpression: 'cron(0 18 * * ? *)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        State: 'ENABLED',
        Target: {
          Arn: { 'Fn::GetAtt': ['SendDigestsLambdaFunction', 'Arn'] },
          RoleArn: { 'Fn::GetAtt': ['DigestScheduleRole', 'Arn'] },
          Input: '{}',
          RetryPolicy: { MaximumRetryAttempts: 3 },
        },
      },
    });
    const role = resources.DigestScheduleRole.Properties;
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Effect: 'Allow', Principal: { Service: 'scheduler.amazonaws.com' }, Action: 'sts:AssumeRole' }),
    ]);
    const statements = role.Policies.flatMap((p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'lambda:InvokeFunction',
        Resource: [arn(fn('sendDigests').name)],
      },
    ]);
  });

  it("finishes interrupted deliveries from the main table's stream, and keeps what fails every attempt in an alarmed dead-letter queue", () => {
    expect(printed.resources.Resources.MainTable.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const recovery = fn('deliveryRecovery');
    expect(recovery.handler).toBe(STREAM_CONSUMERS.deliveryRecovery.handler);
    expect(recovery.events).toHaveLength(1);
    expect(recovery.events[0].stream).toMatchObject({
      type: 'dynamodb',
      arn: { 'Fn::GetAtt': ['MainTable', 'StreamArn'] },
      startingPosition: 'LATEST',
      maximumRetryAttempts: 10,
      bisectBatchOnFunctionError: true,
      destinations: { onFailure: DLQ },
    });
    expect(recovery.events[0].stream!.filterPatterns[0]).toMatchObject({ eventName: ['INSERT'] });
    // Every delivery job's; a push notification that failed every attempt is stale, and dropped.
    expect(fn('messageFanout').destinations).toEqual({ onFailure: DLQ });
    expect(fn('messageMove').destinations).toEqual({ onFailure: DLQ });
    expect(fn('push').destinations).toBeUndefined();
    expect(printed.resources.Resources.DeliveryDeadLetterAlarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: 'OperatorAlarmTopic' }],
    });
    // A deliverer stopped by its function's timeout has lost its lease by then: the next may take over.
    expect(recovery.timeout * 1000).toBeGreaterThan(REQUEST_LEASE_MS);
    expect(fn('devFetchApiKey').timeout * 1000).toBeLessThan(REQUEST_LEASE_MS);
    expect(JOBS.messageFanout.timeout * 1000).toBeLessThan(JOB_LEASE_MS);
  });

  it("keeps every function's environment within Lambda's 4 KB: the fallback's route table is bundled, not passed", () => {
    expect(fn('routeFallback').handler).toBe('functions/fallback/unmatched.handler');
    expect(fn('routeFallback').environment?.ROUTE_TABLE).toBeUndefined();
    // A CloudFormation expression counts as its JSON text, longer than what it resolves to.
    const size = (env: Record<string, unknown>) =>
      Object.entries(env).reduce((sum, [k, v]) => sum + k.length + (typeof v === 'string' ? v : JSON.stringify(v)).length, 0);
    const largest = Math.max(...Object.values(printed.functions).map((f) => size({ ...printed.provider.environment, ...f.environment })));
    expect(largest).toBeLessThan(4096);
  });

  it("answers every other unknown path from the page fallback, not with API Gateway's own 404", () => {
    expect(fn('pageFallback').handler).toBe('functions/fallback/not-found.handler');
  });

  it("sends the web app's /json/ requests on to /api/v1/ with one proxy route, marked as the functions expect", () => {
    const { JsonRoute: route, JsonRouteIntegration: integration } = printed.resources.Resources;
    expect(route.Properties).toEqual({
      ApiId: { Ref: 'HttpApi' },
      RouteKey: 'ANY /json/{proxy+}',
      Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'JsonRouteIntegration' }]] },
    });
    expect(integration.Properties).toMatchObject({ IntegrationType: 'HTTP_PROXY', IntegrationMethod: 'ANY', PayloadFormatVersion: '1.0' });
    expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain('/api/v1/{proxy}');
    expect(integration.Properties.RequestParameters).toEqual({
      [`overwrite:header.${JSON_ROUTE_HEADER}`]: '1',
      'overwrite:header.x-forwarded-host': '$context.domainName',
    });
  });

  it("throttles the HTTP API stage's routes, the password logins, sign-ups and resets lower, after their routes exist", () => {
    const stage = printed.resources.extensions.HttpApiStage;
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    const passwordRoutes = [
      'POST /accounts/password/reset/',
      'POST /accounts/password/reset/{reset_key}/',
      'POST /api/v1/fetch_api_key',
      'POST /join/{confirmation_key}/',
      'POST /login/',
      'POST /new/{creation_key}/',
      'POST /register/',
    ];
    expect(stage.Properties.RouteSettings).toEqual(
      Object.fromEntries(passwordRoutes.map((key) => [key, { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 }])),
    );
    // Each route's setting needs the route to exist first (that these name those routes: test:package).
    expect(stage.DependsOn).toHaveLength(passwordRoutes.length);
    for (const name of stage.DependsOn) expect(name).toMatch(/^HttpApiRoutePost/);
  });

  it("gives the password functions the memory of OWASP's scrypt cost (128 MiB a hash) and the CPU to hash within their timeout", () => {
    for (const name of ['fetchApiKey', 'updateSettings', 'webLogin', 'webApiKey'])
      expect({ name, memory: fn(name).memorySize }).toEqual({ name, memory: 1024 });
  });

  it("gives GET /events a timeout above the long-poll bound and below API Gateway's 30 s", () => {
    const events = loadRoutes().find((r) => r.method === 'GET' && r.path === '/events');
    expect(events).toBeDefined();
    const { timeout } = fn(events!.name);
    expect(timeout).toBeGreaterThan(Number(printed.provider.environment.EVENTS_LONGPOLL_SECONDS));
    expect(timeout).toBeLessThan(30);
  });

  it("logs no Lambda line per GET /events: JSON logs at a WARN system level, the handler's own at INFO; other functions as Lambda's default", () => {
    const events = loadRoutes().find((r) => r.method === 'GET' && r.path === '/events');
    expect(fn(events!.name).logs).toEqual({ logFormat: 'JSON', applicationLogLevel: 'INFO', systemLogLevel: 'WARN' });
    expect(fn('register').logs).toBeUndefined();
  });

  it('passes the table names and the upload URL secret to every function, with development mode off', () => {
    expect(Object.keys(printed.functions).length).toBeGreaterThan(loadRoutes().length);
    expect(printed.provider.environment).toMatchObject({
      TABLE_MAIN: `chat-${STAGE}-main`,
      TABLE_EVENTS: `chat-${STAGE}-events`,
      DEVELOPMENT_MODE: 'off',
      UPLOAD_URL_SECRET,
    });
    for (const [name, f] of Object.entries({ provider: { environment: printed.provider.environment }, ...printed.functions })) {
      for (const variable of [
        'DYNAMODB_ENDPOINT',
        'DEV_PASSWORD_SECRET',
        'TABLE_MAIN',
        'TABLE_EVENTS',
        'DEVELOPMENT_MODE',
        'UPLOAD_URL_SECRET',
      ]) {
        // Set once, for every function: no function overrides them, and none gets a local endpoint or the development secret.
        if (name === 'provider' && !['DYNAMODB_ENDPOINT', 'DEV_PASSWORD_SECRET'].includes(variable)) continue;
        expect({ name, variable, set: Object.prototype.hasOwnProperty.call(f.environment ?? {}, variable) }).toEqual({
          name,
          variable,
          set: false,
        });
      }
    }
  });

  it.each(TABLES.map((t) => [t.name, t]))('creates the %s table with its keys, indexes and TTL', (name, table) => {
    const resource = printed.resources.Resources[`${capitalized(name as string)}Table`];
    expect(resource.Type).toBe('AWS::DynamoDB::Table');
    const props = resource.Properties;
    expect(props.TableName).toBe(`chat-${STAGE}-${name}`);
    expect(props.KeySchema).toEqual(table.properties.KeySchema);
    expect(props.GlobalSecondaryIndexes ?? []).toEqual(table.properties.GlobalSecondaryIndexes ?? []);
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('indexes every change to a message item for search, from the same stream, with its failures kept', () => {
    const index = fn('searchIndex');
    expect(index.handler).toBe(STREAM_CONSUMERS.searchIndex.handler);
    expect(index.events[0].stream).toMatchObject({
      type: 'dynamodb',
      arn: { 'Fn::GetAtt': ['MainTable', 'StreamArn'] },
      maximumRetryAttempts: 10,
      bisectBatchOnFunctionError: true,
      destinations: { onFailure: DLQ },
      filterPatterns: [{ dynamodb: { Keys: { pk: { S: [{ prefix: 'MSG#' }] }, sk: { S: ['MSG'] } } } }],
    });
  });

  it('declares the search database: Aurora Serverless v2 PostgreSQL pausing at 0 capacity units, with the Data API and its secret', () => {
    const { SearchCluster, SearchInstance, SearchSecret } = printed.resources.Resources as Record<string, any>;
    expect(SearchSecret.Type).toBe('AWS::SecretsManager::Secret');
    expect(SearchCluster.Type).toBe('AWS::RDS::DBCluster');
    expect(SearchCluster.Properties).toMatchObject({
      Engine: 'aurora-postgresql',
      DatabaseName: 'chat',
      EnableHttpEndpoint: true,
      StorageEncrypted: true,
      ServerlessV2ScalingConfiguration: { MinCapacity: 0, SecondsUntilAutoPause: 300 },
    });
    expect(SearchCluster.Properties.MasterUserPassword).toContain(`{{resolve:secretsmanager:chat-${STAGE}-search:SecretString:password}}`);
    expect(SearchInstance.Properties).toMatchObject({ DBClusterIdentifier: { Ref: 'SearchCluster' }, DBInstanceClass: 'db.serverless' });
    expect(printed.provider.environment).toMatchObject({
      SEARCH_CLUSTER_ARN: { 'Fn::GetAtt': ['SearchCluster', 'DBClusterArn'] },
      SEARCH_SECRET_ARN: { Ref: 'SearchSecret' },
      SEARCH_DATABASE: 'chat',
    });
    const statements = printed.provider.iam.role.statements.filter((st) =>
      [st.Action].flat().some((a: string) => a.startsWith('rds-data:') || a.startsWith('secretsmanager:')),
    );
    expect(statements).toEqual([
      { Effect: 'Allow', Action: ['rds-data:ExecuteStatement'], Resource: { 'Fn::GetAtt': ['SearchCluster', 'DBClusterArn'] } },
      { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: { Ref: 'SearchSecret' } },
    ]);
  });

  it('limits the Lambda role to the two tables and the indexes of main, without Scan', () => {
    const dynamo = printed.provider.iam.role.statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    const [statement] = dynamo;
    expect(statement.Effect).toBe('Allow');
    expect(statement.Action).not.toContain('dynamodb:Scan');
    expect(statement.Action.every((a: string) => a.startsWith('dynamodb:') && !a.includes('*'))).toBe(true);
    const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
    expect(statement.Resource).toEqual([arn('MainTable'), { 'Fn::Join': ['/', [arn('MainTable'), 'index', '*']] }, arn('EventsTable')]);
  });

  it('has one private uploads bucket, named by the uploadsBucket parameter (and a private incoming-email bucket only with the email gateway)', () => {
    const buckets = Object.entries(printed.resources.Resources).filter(([, r]) => r.Type === 'AWS::S3::Bucket');
    expect(buckets.map(([id, r]) => [id, r.Condition])).toEqual([
      ['UploadsBucket', undefined],
      ['IncomingEmailBucket', 'EmailGatewayEnabled'],
    ]);
    expect(buckets[1][1].Properties.PublicAccessBlockConfiguration).toEqual(buckets[0][1].Properties.PublicAccessBlockConfiguration);
    const [[, bucket]] = buckets;
    expect(bucket.Properties.BucketName).toBe(`chat-${STAGE}-uploads`);
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(printed.provider.environment.UPLOADS_BUCKET).toBe(`chat-${STAGE}-uploads`);
  });

  it('lets only the upload and avatar functions use the bucket: serving may GetObject, uploading may PutObject, removing an attachment may DeleteObject', () => {
    const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['UploadsBucket', 'Arn'] }, '/*']] };
    const s3Statements = (statements: any[]) => statements.filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('s3:')));
    const roleStatements = (roleId: string) =>
      printed.resources.Resources[roleId].Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    expect(s3Statements(printed.provider.iam.role.statements)).toEqual([]);
    expect(s3Statements(roleStatements('UploadsReadRole'))).toEqual([{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects] }]);
    expect(s3Statements(roleStatements('UploadsWriteRole'))).toEqual([{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: [objects] }]);
    expect(s3Statements(roleStatements('UploadsDeleteRole'))).toEqual([
      { Effect: 'Allow', Action: ['s3:DeleteObject'], Resource: [objects] },
    ]);
    const ROLES = { read: 'UploadsReadRole', write: 'UploadsWriteRole', delete: 'UploadsDeleteRole' };
    for (const route of loadRoutes()) {
      expect({ route: route.name, role: fn(route.name).role }).toEqual({
        route: route.name,
        role: route.bucket ? ROLES[route.bucket] : undefined,
      });
    }
    expect(
      loadRoutes()
        .filter((r) => r.bucket)
        .map((r) => `${r.name}:${r.bucket}`)
        .sort(),
    ).toEqual(BUCKET_ROUTES);
  });

  describe('one function of each kind, bundled as serverless-esbuild bundles it, run on plain Node as Lambda runs it', () => {
    let runDir: string;
    const entry = (handler: string) => `${handler.replace(/\.[^.]+$/, '')}.ts`;

    beforeAll(async () => {
      runDir = mkdtempSync(join(tmpdir(), 'chat-lambda-'));
      // The plugin's own options (which functions, how many at a time) are not esbuild's.
      const { exclude, skipRebuild, concurrency, zipConcurrency, ...options } = printed.custom.esbuild as BuildOptions & {
        exclude?: string[];
        skipRebuild?: boolean;
        concurrency?: number;
        zipConcurrency?: number;
      };
      expect(exclude).toEqual([]);
      // One-shot builds, a few at a time: all at once with their contexts kept, esbuild outgrew the machine's memory.
      expect({ skipRebuild, concurrency, zipConcurrency }).toEqual({ skipRebuild: true, concurrency: 4, zipConcurrency: 4 });
      await build({
        ...options,
        absWorkingDir: ROOT,
        // An HTTP handler, a job invoked asynchronously, and the stream consumer.
        entryPoints: [fn('devFetchApiKey').handler, fn('messageFanout').handler, fn('deliveryRecovery').handler].map(entry),
        outbase: '.',
        outdir: runDir,
        logLevel: 'silent',
      });
    }, 120000);

    afterAll(() => {
      rmSync(runDir, { recursive: true, force: true });
    });

    it('POST /dev_fetch_api_key reads the tables in development mode', async () => {
      const response = await bundledDevLogin(runDir, 'on');
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatchObject({ result: 'success', email: 'iago@zulip.com', user_id: 11 });
    });

    it("POST /dev_fetch_api_key refuses with the stage's own environment: no development login", async () => {
      expect(await bundledDevLogin(runDir, printed.provider.environment.DEVELOPMENT_MODE)).toEqual({
        statusCode: 400,
        body: { result: 'error', msg: 'Endpoint not available in production.', code: 'BAD_REQUEST' },
      });
    });

    it('the messageFanout job reads the tables and ends for a message that does not exist', async () => {
      const script = `require('./functions/jobs/message-fanout.js').handler({ realmId: 2, messageId: 987654 }).then((r) => process.stdout.write(JSON.stringify({ done: r ?? null })))`;
      expect(JSON.parse(await runBundled(runDir, script))).toEqual({ done: null });
    });

    it('the deliveryRecovery stream consumer reads the tables and ends for a record of a message that does not exist', async () => {
      const record = {
        eventName: 'INSERT',
        dynamodb: { NewImage: { realmId: { N: '2' }, id: { N: '987654' }, pendingDelivery: { M: {} } } },
      };
      const script = `require('./functions/jobs/delivery-recovery.js').handler({ Records: [${JSON.stringify(record)}] }).then((r) => process.stdout.write(JSON.stringify({ done: r ?? null })))`;
      expect(JSON.parse(await runBundled(runDir, script))).toEqual({ done: null });
    });
  });
});

const printEnvironment = async (...args: string[]) => {
  const result = await serverless(['print', ...args, '--format', 'json', '--path', 'provider.environment']);
  expect(result).toMatchObject({ ok: true });
  return JSON.parse(result.output);
};

describe('development mode and secrets of a stage', () => {
  it("leaves development mode off in a stage named development: a stage's name never turns it on", async () => {
    expect(await printEnvironment('--stage', 'development', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`)).toMatchObject({
      DEVELOPMENT_MODE: 'off',
      TABLE_MAIN: 'chat-development-main',
    });
  }, 120000);

  it('turns development mode on when the developmentMode parameter says so by name', async () => {
    const env = await printEnvironment(
      '--stage',
      'sandbox',
      '--param',
      'developmentMode=on',
      '--param',
      `uploadUrlSecret=${UPLOAD_URL_SECRET}`,
    );
    expect(env).toMatchObject({ DEVELOPMENT_MODE: 'on', UPLOAD_URL_SECRET });
  }, 120000);

  it('refuses a developmentMode other than on or off', async () => {
    const result = await serverless(['print', '--param', 'developmentMode=true', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('The developmentMode parameter must be on or off, got "true"');
  }, 120000);

  it.each([
    ['without an uploadUrlSecret', [], 'dev'],
    ['without an uploadUrlSecret, even in development mode', ['--stage', 'sandbox', '--param', 'developmentMode=on'], 'sandbox'],
    ['with an uploadUrlSecret shorter than 32 characters', ['--param', 'uploadUrlSecret=development'], 'dev'],
  ])(
    'refuses to package a stage %s, saying how to set it',
    async (_case, args, stage) => {
      const outDir = mkdtempSync(join(tmpdir(), 'chat-package-refused-'));
      try {
        const result = await serverless(['package', ...args, '--package', outDir]);
        expect(result.ok).toBe(false);
        expect(result.output).toContain(
          `The stage "${stage}" needs an uploadUrlSecret of at least 32 characters, to sign its file URLs: ` +
            'pass --param "uploadUrlSecret=$(openssl rand -hex 32)" or set it in serverless.yml params (e.g. from SSM).',
        );
        expect(readdirSync(outDir)).toEqual([]);
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    },
    120000,
  );
});

describe('where GET /events runs (the eventsCapacity parameter, capacity/index.js)', () => {
  it('declares the VPC, its endpoints and the capacity provider, and puts GET /events on it, with eventsCapacity managed', async () => {
    const result = await serverless([
      'print',
      '--param',
      'eventsCapacity=managed',
      '--param',
      `uploadUrlSecret=${UPLOAD_URL_SECRET}`,
      '--format',
      'json',
      '--path',
      'resources',
    ]);
    expect(result).toMatchObject({ ok: true });
    const { Resources, extensions } = JSON.parse(result.output);
    const types = Object.values(Resources as Record<string, Resource>).map((r) => r.Type);
    expect(types).toEqual(
      expect.arrayContaining(['AWS::EC2::VPC', 'AWS::EC2::VPCEndpoint', 'AWS::IAM::Role', 'AWS::Lambda::CapacityProvider']),
    );
    expect(Resources.EventsCapacityProvider.Properties.CapacityProviderName).toBe(`chat-${STAGE}-events`);
    // Both extensions are kept: the stage's throttling and GET /events' capacity provider.
    expect(Object.keys(extensions).sort()).toEqual(['EventsGetLambdaFunction', 'HttpApiStage']);
    expect(extensions.EventsGetLambdaFunction.Properties.CapacityProviderConfig.LambdaManagedInstancesCapacityProviderConfig).toMatchObject(
      {
        CapacityProviderArn: { 'Fn::GetAtt': ['EventsCapacityProvider', 'Arn'] },
      },
    );
  }, 120000);

  it('refuses an eventsCapacity other than standard or managed', async () => {
    const result = await serverless(['print', '--param', 'eventsCapacity=ec2', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      'The eventsCapacity parameter must be standard (standard Lambda, the default) or managed (Lambda Managed Instances), got "ec2"',
    );
  }, 120000);
});
