// The email gateway as `serverless print` resolves it (the pattern of serverless-package.test.ts):
// SES receiving's rule set and rule, storing each email to the gateway's domain in the
// incoming-email bucket and invoking receiveEmail, which may read only what is stored there; none
// of it without a domain, when emails say replies are not accepted.
import { serverless, STAGE, UPLOAD_URL_SECRET } from '../helpers/serverless-cli';

type Printed = {
  provider: { environment: Record<string, unknown>; iam: { role: { statements: any[] } } };
  functions: Record<string, { handler: string; events: unknown[]; maximumRetryAttempts?: number; role?: string }>;
  resources: { Resources: Record<string, any>; Conditions: Record<string, any> };
};

const print = async (...params: string[]): Promise<Printed> => {
  const args = ['print', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`, ...params.flatMap((p) => ['--param', p]), '--format', 'json'];
  const result = await serverless(args);
  expect(result).toMatchObject({ ok: true });
  return JSON.parse(result.output) as Printed;
};

const GATEWAY = [
  'IncomingEmailBucket',
  'IncomingEmailBucketPolicy',
  'ReceiveEmailInvokedBySes',
  'IncomingEmailRuleSet',
  'IncomingEmailRule',
];

describe('the email gateway in the deployed configuration', () => {
  let printed: Printed;
  beforeAll(async () => {
    printed = await print('emailGatewayDomain=reply.example.com');
  }, 180_000);

  it('receives the domain with one SES rule that stores the email under incoming/, then invokes receiveEmail', () => {
    const { Rule } = printed.resources.Resources.IncomingEmailRule.Properties;
    expect(Rule).toMatchObject({ Enabled: true, ScanEnabled: true, Recipients: ['reply.example.com'] });
    expect(Rule.Actions).toEqual([
      { S3Action: { BucketName: { Ref: 'IncomingEmailBucket' }, ObjectKeyPrefix: 'incoming/' } },
      { LambdaAction: { FunctionArn: { 'Fn::GetAtt': ['ReceiveEmailLambdaFunction', 'Arn'] }, InvocationType: 'Event' } },
    ]);
    expect(printed.resources.Resources.IncomingEmailRule.DependsOn).toEqual(['IncomingEmailBucketPolicy', 'ReceiveEmailInvokedBySes']);
    expect(printed.resources.Resources.IncomingEmailRule.Properties.RuleSetName).toEqual({ Ref: 'IncomingEmailRuleSet' });
  });

  it('lets only SES of this account put emails in the bucket, and only SES invoke receiveEmail', () => {
    const [statement] = printed.resources.Resources.IncomingEmailBucketPolicy.Properties.PolicyDocument.Statement;
    expect(statement).toMatchObject({ Effect: 'Allow', Principal: { Service: 'ses.amazonaws.com' }, Action: 's3:PutObject' });
    expect(statement.Condition).toEqual({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
    expect(printed.resources.Resources.ReceiveEmailInvokedBySes.Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      Principal: 'ses.amazonaws.com',
    });
    expect(printed.resources.Resources.IncomingEmailBucket.Properties.BucketName).toBe(`chat-${STAGE}-incoming-email`);
  });

  it('runs receiveEmail on the same code as npm run deliver-email, as the one role that may read incoming/ of that bucket', () => {
    expect(printed.functions.receiveEmail).toMatchObject({
      handler: 'functions/jobs/receive-email.handler',
      events: [],
      maximumRetryAttempts: 2,
    });
    expect(printed.functions.receiveEmail.role).toBe('IncomingEmailRole');
    const s3 = (statements: any[]) => statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('s3:')));
    expect(s3(printed.provider.iam.role.statements)).toEqual([]);
    const role = printed.resources.Resources.IncomingEmailRole.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    expect(s3(role)).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::chat-${STAGE}-incoming-email/incoming/*`] },
    ]);
    expect(printed.provider.environment.INCOMING_EMAIL_BUCKET).toBe(`chat-${STAGE}-incoming-email`);
    // A plain value (nested stacks carry no conditions); lib/config.ts makes it `%s@reply.example.com`.
    expect(printed.provider.environment.EMAIL_GATEWAY_DOMAIN).toBe('reply.example.com');
    expect(printed.provider.environment.EMAIL_GATEWAY_PATTERN).toBeUndefined();
  });

  it('creates none of it without a domain (the condition is false)', async () => {
    const plain = await print();
    expect(plain.resources.Conditions.EmailGatewayEnabled).toEqual({ 'Fn::Not': [{ 'Fn::Equals': ['', ''] }] });
    for (const name of GATEWAY)
      expect({ name, condition: plain.resources.Resources[name].Condition }).toEqual({ name, condition: 'EmailGatewayEnabled' });
  }, 180_000);
});
