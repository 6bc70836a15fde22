// stacks/serverless-plugin.js as osls runs it, on a small compiled template: at `package` it
// replaces the template with the root one and writes the nested templates where osls writes its
// package (.serverless/, which `--package` then moves), and refuses a template past the quotas; at
// `deploy` it uploads each nested template the root names to the package's directory of the
// deployment bucket, here the local S3 stand-in the handlers project starts (S3_ENDPOINT).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { nestedStacks, unresolvedReferences, type Template } from '../helpers/cloudformation';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const StacksPlugin = require('../../stacks/serverless-plugin.js') as new (serverless: unknown) => {
  hooks: Record<string, () => unknown>;
};

const BUCKET = 'chat-test-deployment-bucket';
const DIRECTORY = 'serverless/chat/dev/1795872514852-2026-11-28T13:28:34.852Z';

/** A function per name, with its log group, as osls compiles one; the role and deployment bucket shared. */
const compiled = (names: string[], extra: Record<string, unknown> = {}): Template => ({
  Resources: {
    ServerlessDeploymentBucket: { Type: 'AWS::S3::Bucket', Properties: {} },
    Role: { Type: 'AWS::IAM::Role', Properties: {} },
    ...Object.fromEntries(
      names.flatMap((name) => [
        [`${name}LogGroup`, { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `/aws/lambda/${name}` } }],
        [
          `${name}LambdaFunction`,
          {
            Type: 'AWS::Lambda::Function',
            Properties: {
              Code: { S3Bucket: { Ref: 'ServerlessDeploymentBucket' }, S3Key: `${DIRECTORY}/${name}.zip` },
              Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
            },
            DependsOn: [`${name}LogGroup`],
          },
        ],
      ]),
    ),
    ...extra,
  },
});

const credentials = {
  accessKeyId: process.env.AWS_ACCESS_KEY_ID || 'local',
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || 'local',
};
const s3Config = () => ({ endpoint: process.env.S3_ENDPOINT!, forcePathStyle: true, region: 'us-east-1', credentials });

/** What the plugin reads of osls's `serverless` object, for a service in `serviceDir`. */
const fakeServerless = (serviceDir: string, template: Template) => ({
  serviceDir,
  classes: { Error },
  getProvider: () => ({ getAwsSdkV3Config: async () => s3Config(), getServerlessDeploymentBucketName: async () => BUCKET }),
  service: {
    provider: { compiledCloudFormationTemplate: template } as { compiledCloudFormationTemplate: Template; shouldNotDeploy?: boolean },
    package: { artifactDirectoryName: DIRECTORY },
  },
});

describe('the stacks plugin (stacks/serverless-plugin.js)', () => {
  let serviceDir: string;
  let s3: S3Client;

  beforeAll(async () => {
    s3 = new S3Client(s3Config());
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  });

  beforeEach(() => {
    serviceDir = mkdtempSync(join(tmpdir(), 'chat-stacks-'));
  });

  afterEach(() => {
    rmSync(serviceDir, { recursive: true, force: true });
  });

  afterAll(() => {
    s3.destroy();
  });

  const keysUploaded = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${DIRECTORY}/` }))).Contents ?? []).map((o) => o.Key).sort();

  it("at package, replaces the template with the root one and writes the nested ones beside it; at deploy, uploads them to the package's directory", async () => {
    const names = 'ABCDEFGHIJKLMNOP'.split('');
    const serverless = fakeServerless(serviceDir, compiled(names));
    const plugin = new StacksPlugin(serverless);
    await plugin.hooks['before:aws:package:finalize:saveServiceState']();

    const root = serverless.service.provider.compiledCloudFormationTemplate;
    expect(Object.keys(root.Resources).filter((id) => id.endsWith('LambdaFunction'))).toEqual([]);
    const written = readdirSync(join(serviceDir, '.serverless')).sort();
    expect(written).toEqual(
      nestedStacks(root)
        .map((s) => s.file)
        .sort(),
    );
    for (const file of written)
      expect(unresolvedReferences(JSON.parse(readFileSync(join(serviceDir, '.serverless', file), 'utf8')))).toEqual([]);
    // Read from the deployment bucket, in this package's directory, in the stack's region.
    expect(root.Resources[nestedStacks(root)[0].id].Properties.TemplateURL).toEqual({
      'Fn::Join': [
        '',
        [
          'https://s3.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          '/',
          { Ref: 'ServerlessDeploymentBucket' },
          '/',
          DIRECTORY,
          '/',
          nestedStacks(root)[0].file,
        ],
      ],
    });

    serverless.service.provider.shouldNotDeploy = true;
    await plugin.hooks['after:aws:deploy:deploy:uploadArtifacts']();
    expect(await keysUploaded()).toEqual([]);

    serverless.service.provider.shouldNotDeploy = false;
    await plugin.hooks['after:aws:deploy:deploy:uploadArtifacts']();
    expect(await keysUploaded()).toEqual(written.map((file) => `${DIRECTORY}/${file}`));
    for (const file of written) {
      const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${DIRECTORY}/${file}` }));
      expect(JSON.parse(await object.Body!.transformToString())).toEqual(
        JSON.parse(readFileSync(join(serviceDir, '.serverless', file), 'utf8')),
      );
    }
  });

  it("refuses a package whose root template is past CloudFormation's 500 resources, naming it", async () => {
    const queues = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`Queue${i}`, { Type: 'AWS::SQS::Queue', Properties: {} }]));
    const plugin = new StacksPlugin(fakeServerless(serviceDir, compiled(['A'], queues)));
    await expect(async () => plugin.hooks['before:aws:package:finalize:saveServiceState']()).rejects.toThrow(
      "past CloudFormation's quotas (stacks/index.js): the root template: 503 resources (at most 500)",
    );
  });
});
