// `npx serverless package` with no AWS credentials builds a deployable artifact: the CloudFormation
// template has a function and an HTTP API route per routes.json entry plus the fallback, both
// tables of tables/ with their keys, indexes and TTL, and a Lambda role limited to those tables;
// and a packaged handler runs on plain Node (no tsx), as Lambda would run it. The default stage is
// packaged, as a plain `npx serverless deploy` would deploy it: without the development login.
//
// The template is a root template and nested ones (stacks/index.js): each is checked against
// CloudFormation's quotas and rules as CloudFormation would read it, and the checks of what is
// deployed read all of them as one (test/helpers/cloudformation.ts flatten).
//
// Not part of `npm test`: bundling every function takes minutes and gigabytes. `npm run
// test:package` runs it (jest.package.config.js), and .ci/run after the suite; `npm test` checks
// the same configuration through `serverless print` and bundles one function of each kind
// (test/deploy/serverless-package.test.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import JSZip from 'jszip';
import { JOB_LEASE_MS, REQUEST_LEASE_MS } from '../../lib/actions/messages/delivery';
import {
  bundledDevLogin,
  capitalized,
  noAwsEnv,
  ROOT,
  run,
  SERVERLESS,
  STAGE,
  UPLOAD_URL_SECRET,
  type Resource,
  BUCKET_ROUTES,
  JOB_NAMES,
} from '../helpers/serverless-cli';
import { flatten, nestedStacks, QUOTAS, quotaViolations, references, unresolvedReferences, type Template } from '../helpers/cloudformation';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JOBS, STREAM_CONSUMERS, loadRoutes } = require('../../functions/routes.js') as {
  JOBS: Record<string, { handler: string; timeout: number }>;
  STREAM_CONSUMERS: Record<string, { handler: string; timeout: number }>;
  loadRoutes: () => { name: string; method: string; path: string; handler: string; root?: true; bucket?: 'read' | 'write' | 'delete' }[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TABLES } = require('../../tables/index.js') as { TABLES: { name: string; properties: Record<string, any> }[] };

const ROOT_TEMPLATE = 'cloudformation-template-update-stack.json';

describe('npx serverless package', () => {
  let outDir: string;
  /** Every resource of the root and nested templates, as one template would have it (flatten). */
  let resources: Record<string, Resource>;
  let root: Template;
  /** The nested templates by file name, as the root's TemplateURLs name them. */
  let nested: Record<string, Template>;
  /** Each template's file as written, by file name (the root's included). */
  let files: Record<string, string>;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'chat-package-'));
    await run(process.execPath, [SERVERLESS, 'package', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`, '--package', outDir], {
      cwd: ROOT,
      env: noAwsEnv(),
      // Each function is bundled on its own, four at a time (serverless.yml custom.esbuild): 121 s
      // and 1.2 GB at most on 2 idle cores (2026-11-28); 490 s at a load average of 15.
      timeout: 900000,
    });
    const read = (file: string) => (files[file] = readFileSync(join(outDir, file), 'utf8'));
    files = {};
    root = JSON.parse(read(ROOT_TEMPLATE));
    nested = Object.fromEntries(nestedStacks(root).map(({ file }) => [file, JSON.parse(read(file)) as Template]));
    resources = flatten(root, nested);
  }, 910000);

  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
  });

  it('has a function for every route, with its handler and its HTTP API route', () => {
    const routes = loadRoutes();
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const fn = resources[`${capitalized(route.name)}LambdaFunction`];
      expect({ route: route.name, handler: fn?.Properties.Handler, runtime: fn?.Properties.Runtime }).toEqual({
        route: route.name,
        handler: route.handler,
        runtime: 'nodejs22.x',
      });
    }
    const routeKeys = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey)
      .sort();
    const full = (r: { path: string; root?: true }) => `${r.root ? '' : '/api/v1'}${r.path}`;
    const expected = routes.flatMap((r) => [`${r.method} ${full(r)}`, ...(r.method === 'GET' ? [`HEAD ${full(r)}`] : [])]);
    expect(routeKeys).toEqual([...expected, 'ANY /api/v1/{proxy+}', 'ANY /json/{proxy+}', 'ANY /{proxy+}'].sort());
  });

  it('packages the built web app with the functions that serve it (the page at / and /static/), and with no other', async () => {
    const served = loadRoutes().filter((r) => (r as { webapp?: true }).webapp);
    expect(served.map((r) => r.name).sort()).toEqual(['webHome', 'webStatic']);
    for (const name of ['webHome', 'webStatic', 'getOwnUser']) {
      const zip = await JSZip.loadAsync(readFileSync(join(outDir, `${name}.zip`)));
      const manifest = zip.file('webapp/dist/manifest.json');
      if (name === 'getOwnUser') {
        expect(Object.keys(zip.files).filter((f) => f.startsWith('webapp/'))).toEqual([]);
        continue;
      }
      const named = JSON.parse(await manifest!.async('string')) as Record<string, string>;
      for (const file of Object.values(named))
        expect({ name, file, packaged: zip.file(`webapp/dist/${file}`) !== null }).toEqual({ name, file, packaged: true });
    }
  });

  it("has each background job as a function without a route, named in every function's environment, that only it may be invoked as", () => {
    expect(Object.keys(JOBS)).toEqual(JOB_NAMES);
    const fn = resources.MessageFanoutLambdaFunction.Properties;
    expect(fn.Handler).toBe(JOBS.messageFanout.handler);
    expect(fn.FunctionName).toBe(`chat-${STAGE}-messageFanout`);
    expect(fn.Environment.Variables.MESSAGE_FANOUT_FUNCTION).toBe(fn.FunctionName);
    expect(resources.DevFetchApiKeyLambdaFunction.Properties.Environment.Variables.MESSAGE_FANOUT_FUNCTION).toBe(fn.FunctionName);
    const move = resources.MessageMoveLambdaFunction.Properties;
    expect(move.Handler).toBe(JOBS.messageMove.handler);
    expect(move.Environment.Variables.MESSAGE_MOVE_FUNCTION).toBe(`chat-${STAGE}-messageMove`);
    const push = resources.PushLambdaFunction.Properties;
    expect(push.Handler).toBe(JOBS.push.handler);
    expect(push.Environment.Variables.PUSH_FUNCTION).toBe(`chat-${STAGE}-push`);
    // Push notifications are configuration: not configured unless the stage's parameters say so.
    expect(push.Environment.Variables).toMatchObject({ PUSH_BOUNCER_URL: '', ZULIP_ORG_ID: '', ZULIP_ORG_KEY: '' });
    const invokeConfigs = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::EventInvokeConfig');
    // Every job's, and the email gateway's receiveEmail (SES invokes it asynchronously).
    expect(invokeConfigs.map((c) => c.Properties.FunctionName.Ref).sort()).toEqual([
      'MessageFanoutLambdaFunction',
      'MessageMoveLambdaFunction',
      'OutgoingWebhookLambdaFunction',
      'PushLambdaFunction',
      'RealmExportLambdaFunction',
      'RealmImportLambdaFunction',
      'ReceiveEmailLambdaFunction',
      'ScheduledDeliveryLambdaFunction',
      'SendDigestsLambdaFunction',
    ]);
    for (const c of invokeConfigs) expect(c.Properties).toMatchObject({ MaximumRetryAttempts: 2 });
    const routeTargets = JSON.stringify(Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration'));
    expect(routeTargets).not.toContain('MessageFanoutLambdaFunction');
    expect(routeTargets).not.toContain('MessageMoveLambdaFunction');
    expect(routeTargets).not.toContain('PushLambdaFunction');
    expect(routeTargets).not.toContain('ScheduledDeliveryLambdaFunction');
    expect(routeTargets).not.toContain('SendDigestsLambdaFunction');
    const statements = resources.IamRoleLambdaExecution.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    const invoke = statements.filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('lambda:')));
    const arnParts = [
      'arn',
      { Ref: 'AWS::Partition' },
      'lambda',
      { Ref: 'AWS::Region' },
      { Ref: 'AWS::AccountId' },
      'function',
      fn.FunctionName,
    ];
    expect(invoke).toEqual([
      {
        Effect: 'Allow',
        Action: ['lambda:InvokeFunction'],
        Resource: [
          { 'Fn::Join': [':', arnParts] },
          { 'Fn::Join': [':', [...arnParts.slice(0, -1), move.FunctionName]] },
          { 'Fn::Join': [':', [...arnParts.slice(0, -1), `chat-${STAGE}-outgoingWebhook`]] },
          { 'Fn::Join': [':', [...arnParts.slice(0, -1), push.FunctionName]] },
        ],
      },
      // A /json/ POST that tunnels another method goes to that route's function (lib/http/method-override.ts).
      { Effect: 'Allow', Action: ['lambda:InvokeFunction'], Resource: [{ 'Fn::Join': [':', [...arnParts.slice(0, -1), 'chat-dev-*']] }] },
    ]);
    // The role may not refer to any function: every function refers to the role (a CloudFormation cycle).
    expect(JSON.stringify(resources.IamRoleLambdaExecution)).not.toMatch(/LambdaFunction/);
  });

  it('starts scheduledDelivery from EventBridge Scheduler schedules through a role that may invoke only it', () => {
    const fn = resources.ScheduledDeliveryLambdaFunction.Properties;
    expect(fn.Handler).toBe(JOBS.scheduledDelivery.handler);
    expect(fn.Environment.Variables).toMatchObject({
      SCHEDULED_DELIVERY_FUNCTION: `chat-${STAGE}-scheduledDelivery`,
      SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': ['ScheduledDeliveryRole', 'Arn'] },
    });
    const role = resources.ScheduledDeliveryRole.Properties;
    expect(role.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({ Service: 'scheduler.amazonaws.com' });
    const granted = role.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    expect(granted).toHaveLength(1);
    expect(granted[0].Action).toBe('lambda:InvokeFunction');
    expect(JSON.stringify(granted[0].Resource)).toContain(`"function","chat-${STAGE}-scheduledDelivery"`);
    const statements = resources.IamRoleLambdaExecution.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    const scheduling = statements.filter((s: any) =>
      [s.Action].flat().some((a: string) => a.startsWith('scheduler:') || a === 'iam:PassRole'),
    );
    expect(scheduling.map((s: any) => s.Action)).toEqual([
      ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
      ['iam:PassRole'],
    ]);
  });

  it("finishes interrupted deliveries from the main table's stream, and keeps what fails every attempt in an alarmed dead-letter queue", () => {
    expect(resources.MainTable.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const fn = resources.DeliveryRecoveryLambdaFunction.Properties;
    expect(fn.Handler).toBe(STREAM_CONSUMERS.deliveryRecovery.handler);
    const mapping = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' &&
        JSON.stringify(r.Properties.FunctionName).includes('DeliveryRecoveryLambdaFunction'),
    )!.Properties;
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': ['MainTable', 'StreamArn'] },
      StartingPosition: 'LATEST',
      MaximumRetryAttempts: 10,
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } } },
    });
    expect(JSON.parse(mapping.FilterCriteria.Filters[0].Pattern)).toMatchObject({ eventName: ['INSERT'] });
    // The message jobs' (fan-out and move); a push notification that failed every attempt is stale,
    // and dropped, and a scheduled delivery marks its message failed itself.
    const deliveryJobs = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::EventInvokeConfig' && /Message(Fanout|Move)LambdaFunction/.test(JSON.stringify(r.Properties.FunctionName)),
    );
    expect(deliveryJobs).toHaveLength(2);
    for (const invokeConfig of deliveryJobs) {
      expect(invokeConfig.Properties.DestinationConfig).toEqual({
        OnFailure: { Destination: { 'Fn::GetAtt': ['DeliveryDeadLetterQueue', 'Arn'] } },
      });
    }
    expect(resources.DeliveryDeadLetterAlarm.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: 'OperatorAlarmTopic' }],
    });
    // A deliverer stopped by its function's timeout has lost its lease by then: the next may take over.
    expect(fn.Timeout * 1000).toBeGreaterThan(REQUEST_LEASE_MS);
    expect(resources.DevFetchApiKeyLambdaFunction.Properties.Timeout * 1000).toBeLessThan(REQUEST_LEASE_MS);
    expect(JOBS.messageFanout.timeout * 1000).toBeLessThan(JOB_LEASE_MS);
  });

  it("keeps every function's environment within Lambda's 4 KB, the fallback's route table bundled instead", () => {
    const fallback = resources.RouteFallbackLambdaFunction.Properties;
    expect(fallback.Handler).toBe('functions/fallback/unmatched.handler');
    expect(fallback.Environment.Variables.ROUTE_TABLE).toBeUndefined();
    // A CloudFormation expression counts as its JSON text, longer than what it resolves to.
    const sizes = Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) =>
        Object.entries(r.Properties.Environment?.Variables ?? {}).reduce(
          (sum, [k, v]) => sum + k.length + (typeof v === 'string' ? v : JSON.stringify(v)).length,
          0,
        ),
      );
    expect(Math.max(...sizes)).toBeLessThan(4096);
  });

  it("throttles the HTTP API stage's routes, the password logins, sign-ups and resets lower, after their routes exist", () => {
    const stage = resources.HttpApiStage as Resource & { DependsOn?: string[] };
    expect(stage.Type).toBe('AWS::ApiGatewayV2::Stage');
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
    // Each route's setting needs the route to exist first: the stage waits for the nested stack that creates it.
    const routes = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Route');
    const holder = (routeKey: string) => {
      const [id] = routes.find(([, r]) => r.Properties.RouteKey === routeKey)!;
      return id in root.Resources ? id : nestedStacks(root).find((s) => id in nested[s.file].Resources)!.id;
    };
    expect([...new Set(passwordRoutes.map(holder))].sort()).toEqual([...stage.DependsOn!].sort());
  });

  it("gives the password functions the memory of OWASP's scrypt cost (128 MiB a hash) and the CPU to hash within their timeout", () => {
    expect(resources.FetchApiKeyLambdaFunction.Properties.MemorySize).toBe(1024);
    expect(resources.UpdateSettingsLambdaFunction.Properties.MemorySize).toBe(1024);
    expect(resources.WebLoginLambdaFunction.Properties.MemorySize).toBe(1024);
    expect(resources.WebApiKeyLambdaFunction.Properties.MemorySize).toBe(1024);
  });

  it("gives GET /events a timeout above the long-poll bound and below API Gateway's 30 s", () => {
    const events = loadRoutes().find((r) => r.method === 'GET' && r.path === '/events');
    expect(events).toBeDefined();
    const fn = resources[`${capitalized(events!.name)}LambdaFunction`].Properties;
    expect(fn.Timeout).toBeGreaterThan(Number(fn.Environment.Variables.EVENTS_LONGPOLL_SECONDS));
    expect(fn.Timeout).toBeLessThan(30);
  });

  it('passes the table names and the upload URL secret to every function, with development mode off', () => {
    const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(loadRoutes().length);
    for (const [id, fn] of functions) {
      const env = fn.Properties.Environment.Variables;
      expect({ id, ...env }).toMatchObject({
        id,
        TABLE_MAIN: `chat-${STAGE}-main`,
        TABLE_EVENTS: `chat-${STAGE}-events`,
        DEVELOPMENT_MODE: 'off',
        UPLOAD_URL_SECRET,
      });
      expect(env).not.toHaveProperty('DYNAMODB_ENDPOINT');
      expect(env).not.toHaveProperty('DEV_PASSWORD_SECRET');
    }
  });

  it.each(TABLES.map((t) => [t.name, t]))('creates the %s table with its keys, indexes and TTL', (name, table) => {
    const resource = resources[`${capitalized(name as string)}Table`];
    expect(resource.Type).toBe('AWS::DynamoDB::Table');
    const props = resource.Properties;
    expect(props.TableName).toBe(`chat-${STAGE}-${name}`);
    expect(props.KeySchema).toEqual(table.properties.KeySchema);
    expect(props.GlobalSecondaryIndexes ?? []).toEqual(table.properties.GlobalSecondaryIndexes ?? []);
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('limits the Lambda role to the two tables and the indexes of main, without Scan', () => {
    const statements = resources.IamRoleLambdaExecution.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    // Reading the main table's stream is its consumers' event sources' (osls adds one statement for
    // each: deliveryRecovery and searchIndex), on the stream only.
    const isStreamRead = (s: any) => JSON.stringify(s.Resource) === JSON.stringify([{ 'Fn::GetAtt': ['MainTable', 'StreamArn'] }]);
    const streamRead = statements.filter(isStreamRead);
    const readStream = {
      Effect: 'Allow',
      Action: ['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream', 'dynamodb:ListStreams'],
      Resource: [{ 'Fn::GetAtt': ['MainTable', 'StreamArn'] }],
    };
    expect(streamRead).toEqual([readStream, readStream]);
    const dynamo = statements.filter((s: any) => !isStreamRead(s) && [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    const [statement] = dynamo;
    expect(statement.Effect).toBe('Allow');
    expect(statement.Action).not.toContain('dynamodb:Scan');
    expect(statement.Action.every((a: string) => a.startsWith('dynamodb:') && !a.includes('*'))).toBe(true);
    const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
    expect(statement.Resource).toEqual([arn('MainTable'), { 'Fn::Join': ['/', [arn('MainTable'), 'index', '*']] }, arn('EventsTable')]);
  });

  it('has one private uploads bucket, named by the uploadsBucket parameter', () => {
    const buckets = Object.entries(resources).filter(
      ([, r]) => r.Type === 'AWS::S3::Bucket' && !/ServerlessDeploymentBucket/.test(JSON.stringify(r)),
    );
    const uploads = buckets.filter(([id]) => id === 'UploadsBucket');
    expect(uploads).toHaveLength(1);
    const [[, bucket]] = uploads;
    expect(bucket.Properties.BucketName).toBe(`chat-${STAGE}-uploads`);
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(resources.DevFetchApiKeyLambdaFunction.Properties.Environment.Variables.UPLOADS_BUCKET).toBe(`chat-${STAGE}-uploads`);
  });

  it('lets only the upload and avatar functions use the bucket: serving may GetObject, uploading may PutObject, removing an attachment may DeleteObject', () => {
    const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['UploadsBucket', 'Arn'] }, '/*']] };
    const s3Statements = (roleId: string) =>
      resources[roleId].Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement).filter((s: any) =>
        [s.Action].flat().some((a: string) => a.startsWith('s3:')),
      );
    expect(s3Statements('IamRoleLambdaExecution')).toEqual([]);
    expect(s3Statements('UploadsReadRole')).toEqual([{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: [objects] }]);
    expect(s3Statements('UploadsWriteRole')).toEqual([{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: [objects] }]);
    expect(s3Statements('UploadsDeleteRole')).toEqual([{ Effect: 'Allow', Action: ['s3:DeleteObject'], Resource: [objects] }]);
    const roleOf = (name: string) => resources[`${capitalized(name)}LambdaFunction`].Properties.Role;
    for (const route of loadRoutes()) {
      const expected =
        route.bucket === 'read'
          ? 'UploadsReadRole'
          : route.bucket === 'write'
            ? 'UploadsWriteRole'
            : route.bucket === 'delete'
              ? 'UploadsDeleteRole'
              : 'IamRoleLambdaExecution';
      expect({ route: route.name, role: roleOf(route.name) }).toEqual({ route: route.name, role: { 'Fn::GetAtt': [expected, 'Arn'] } });
    }
    expect(
      loadRoutes()
        .filter((r) => r.bucket)
        .map((r) => `${r.name}:${r.bucket}`)
        .sort(),
    ).toEqual(BUCKET_ROUTES);
  });

  describe("the root template and its nested stacks, within CloudFormation's quotas and rules", () => {
    const templates = (): [string, Template][] => [[ROOT_TEMPLATE, root], ...Object.entries(nested)];

    it('splits the functions into nested stacks, each template within 500 resources, 200 parameters, 200 outputs and 1 MB', () => {
      expect(Object.keys(nested).length).toBeGreaterThanOrEqual(2);
      for (const [file, template] of templates()) {
        // Both as written (indented) and as uploaded (osls and the stacks plugin upload it minified).
        expect({ file, problems: quotaViolations(template, files[file]) }).toEqual({ file, problems: [] });
        expect({ file, problems: quotaViolations(template) }).toEqual({ file, problems: [] });
      }
      // Every function is in a nested stack, with its log group; the root keeps none.
      const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
      expect(functions.length).toBeGreaterThan(loadRoutes().length);
      for (const [id] of functions) {
        const file = Object.keys(nested).find((f) => id in nested[f].Resources);
        expect({
          id,
          file: file !== undefined,
          logGroup: file !== undefined && id.replace(/LambdaFunction$/, 'LogGroup') in nested[file].Resources,
        }).toEqual({
          id,
          file: true,
          logGroup: true,
        });
      }
    });

    it('publishes no numbered function versions (versionFunctions: false): nothing invokes one', () => {
      expect(Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Version')).toEqual([]);
      expect(Object.keys(root.Outputs ?? {}).filter((name) => /QualifiedArn/.test(name))).toEqual([]);
    });

    it('resolves every Ref, Fn::GetAtt and Fn::Sub of each template within it, every DependsOn too, with no cycle', () => {
      for (const [file, template] of templates())
        expect({ file, problems: unresolvedReferences(template) }).toEqual({ file, problems: [] });
    });

    it('gives each nested stack exactly the parameters its template declares, each a reference, from the template this package uploads', () => {
      const functionKey = String(resources.GetOwnUserLambdaFunction.Properties.Code.S3Key);
      const artifactDirectory = functionKey.slice(0, functionKey.lastIndexOf('/'));
      for (const stack of nestedStacks(root)) {
        const declared = Object.keys(nested[stack.file].Parameters ?? {}).sort();
        expect({ stack: stack.id, parameters: Object.keys(stack.parameters).sort() }).toEqual({ stack: stack.id, parameters: declared });
        for (const [name, value] of Object.entries(stack.parameters)) {
          // A parameter is a string: a Ref or an attribute, never a literal past the 4,096 bytes a value may hold.
          expect({ name, isReference: references(value).length === 1 && Object.keys(value as object).length === 1 }).toEqual({
            name,
            isReference: true,
          });
          expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThan(QUOTAS.parameterValueBytes);
        }
        for (const parameter of Object.values(nested[stack.file].Parameters ?? {})) expect(parameter).toEqual({ Type: 'String' });
        // Its template is in this package, and read from the deployment bucket's directory of this package.
        expect(existsSync(join(outDir, stack.file))).toBe(true);
        const url = JSON.stringify(root.Resources[stack.id].Properties.TemplateURL);
        expect(url).toContain(JSON.stringify(artifactDirectory));
        expect(url).toContain('{"Ref":"ServerlessDeploymentBucket"}');
        expect(url).toContain(`"${stack.file}"`);
      }
    });
  });

  describe('the packaged POST /dev_fetch_api_key, run on plain Node as Lambda runs it', () => {
    let runDir: string;

    beforeAll(async () => {
      const zip = await JSZip.loadAsync(readFileSync(join(outDir, 'devFetchApiKey.zip')));
      runDir = mkdtempSync(join(tmpdir(), 'chat-lambda-'));
      for (const [name, entry] of Object.entries(zip.files)) {
        if (entry.dir) continue;
        const target = join(runDir, name);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, await entry.async('nodebuffer'));
      }
    });

    afterAll(() => {
      rmSync(runDir, { recursive: true, force: true });
    });

    const devLogin = (developmentMode: string) => bundledDevLogin(runDir, developmentMode);

    it('reads the tables in development mode', async () => {
      const response = await devLogin('on');
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatchObject({ result: 'success', email: 'iago@zulip.com', user_id: 11 });
    });

    it("refuses with the template's own environment: no development login", async () => {
      const mode = resources.DevFetchApiKeyLambdaFunction.Properties.Environment.Variables.DEVELOPMENT_MODE;
      expect(await devLogin(mode)).toEqual({
        statusCode: 400,
        body: { result: 'error', msg: 'Endpoint not available in production.', code: 'BAD_REQUEST' },
      });
    });
  });
});
