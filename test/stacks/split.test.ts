// stacks/index.js on a small template shaped as osls compiles one (a function per route with its
// log group, permission, integration and route, the shared role, API, table and stage), split into
// 2 nested stacks: what moves, how references cross, what stays ordered, and that a function stays
// in its stack as others come and go. test/package checks the same rules on the real template.
import { flatten, nestedStacks, unresolvedReferences, type Template } from '../helpers/cloudformation';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { limitViolations, nestedTemplateFiles, splitTemplate } = require('../../stacks/index.js') as {
  limitViolations: (template: Template, name: string) => string[];
  nestedTemplateFiles: (root: Template) => string[];
  splitTemplate: (
    template: Template,
    options: { templateUrl: (file: string) => unknown; stackCount?: number },
  ) => { root: Template; nested: { id: string; index: number; fileName: string; template: Template }[] };
};

const templateUrl = (file: string) => ({ 'Fn::Join': ['/', ['https://s3.amazonaws.com', { Ref: 'DeploymentBucket' }, 'dir', file]] });

/** What osls compiles for one route's function `name` (A, B, …). */
const routeFunction = (name: string, functionDependsOn: string[] = []) => ({
  [`${name}LogGroup`]: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `/aws/lambda/chat-${name}` } },
  [`${name}LambdaFunction`]: {
    Type: 'AWS::Lambda::Function',
    Properties: {
      FunctionName: `chat-${name}`,
      Code: { S3Bucket: { Ref: 'DeploymentBucket' }, S3Key: 'dir/fn.zip' },
      Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
      Environment: {
        Variables: {
          TABLE: { 'Fn::Sub': '${Table}' },
          STREAM: { 'Fn::Sub': '${Table.StreamArn} in ${AWS::Region}, ${!Literal}' },
          SECRET: { 'Fn::Sub': ['${Own}', { Own: { Ref: 'Secret' } }] },
        },
      },
    },
    DependsOn: [`${name}LogGroup`, ...functionDependsOn],
  },
  [`${name}LambdaPermissionHttpApi`]: {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: { 'Fn::GetAtt': [`${name}LambdaFunction`, 'Arn'] },
      SourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':execute-api:', { Ref: 'HttpApi' }, '/*']] },
    },
  },
  [`HttpApiIntegration${name}`]: {
    Type: 'AWS::ApiGatewayV2::Integration',
    Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationUri: { 'Fn::GetAtt': [`${name}LambdaFunction`, 'Arn'] } },
  },
  [`HttpApiRouteGet${name}`]: {
    Type: 'AWS::ApiGatewayV2::Route',
    Properties: { ApiId: { Ref: 'HttpApi' }, Target: { 'Fn::Join': ['/', ['integrations', { Ref: `HttpApiIntegration${name}` }]] } },
    DependsOn: `HttpApiIntegration${name}`,
  },
});

const shared = {
  DeploymentBucket: { Type: 'AWS::S3::Bucket', Properties: {} },
  Role: { Type: 'AWS::IAM::Role', Properties: {} },
  HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'chat' } },
  Table: { Type: 'AWS::DynamoDB::Table', Properties: {} },
  Secret: { Type: 'AWS::SecretsManager::Secret', Properties: {} },
  Endpoint: { Type: 'AWS::EC2::VPCEndpoint', Properties: {} },
};

/**
 * A (with 2 nested stacks, in stack 2), B (stack 2, after Endpoint, as GET /events after its VPC
 * endpoints) and C (stack 1); the stage after A's and C's routes; a policy on two functions, and an
 * output of one, that stay in the root.
 */
const template = (): Template => ({
  Resources: {
    ...shared,
    ...routeFunction('A', ['HttpApiIntegrationC']),
    ...routeFunction('B', ['Endpoint']),
    ...routeFunction('C'),
    HttpApiStage: {
      Type: 'AWS::ApiGatewayV2::Stage',
      Properties: { ApiId: { Ref: 'HttpApi' } },
      DependsOn: ['HttpApiRouteGetA', 'HttpApiRouteGetC'],
    },
    TwoFunctionsPolicy: {
      Type: 'AWS::IAM::Policy',
      Properties: {
        Resources: [{ 'Fn::GetAtt': ['ALambdaFunction', 'Arn'] }, { 'Fn::Sub': 'name ${CLambdaFunction}' }],
      },
    },
  },
  Outputs: { AArn: { Value: { 'Fn::GetAtt': ['ALambdaFunction', 'Arn'] } } },
});

const split = (t: Template = template()) => splitTemplate(t, { templateUrl, stackCount: 2 });
const byFile = (nested: { fileName: string; template: Template }[]) => Object.fromEntries(nested.map((n) => [n.fileName, n.template]));
const stackOf = (nested: { id: string; template: Template }[], resourceId: string) =>
  nested.find((n) => resourceId in n.template.Resources)?.id;

describe('splitting the compiled template (stacks/index.js)', () => {
  it('moves each function with its log group, permission, integration and routes, and keeps the shared resources in the root', () => {
    const { root, nested } = split();
    expect(nested.map((n) => n.id)).toEqual(['FunctionsStack1', 'FunctionsStack2']);
    expect(Object.keys(nested[0].template.Resources).sort()).toEqual(Object.keys(routeFunction('C')).sort());
    expect(Object.keys(nested[1].template.Resources).sort()).toEqual(Object.keys({ ...routeFunction('A'), ...routeFunction('B') }).sort());
    expect(Object.keys(root.Resources).sort()).toEqual(
      [...Object.keys(shared), 'HttpApiStage', 'TwoFunctionsPolicy', 'FunctionsStack1', 'FunctionsStack2'].sort(),
    );
    expect(nestedTemplateFiles(root)).toEqual(nested.map((n) => n.fileName));
  });

  it('leaves every reference resolvable in its own template, and passes each nested stack exactly the parameters it declares', () => {
    const { root, nested } = split();
    for (const t of [root, ...nested.map((n) => n.template)]) expect(unresolvedReferences(t)).toEqual([]);
    for (const stack of nestedStacks(root))
      expect(Object.keys(stack.parameters).sort()).toEqual(Object.keys(byFile(nested)[stack.file].Parameters ?? {}).sort());
    // A root resource by its own name, an attribute by resource and attribute; a Sub's own variable and ${!…} stay.
    const a = nested[1].template.Resources.ALambdaFunction.Properties;
    expect(a.Role).toEqual({ Ref: 'RoleArn' });
    expect(a.Environment.Variables).toEqual({
      TABLE: { 'Fn::Sub': '${Table}' },
      STREAM: { 'Fn::Sub': '${TableStreamArn} in ${AWS::Region}, ${!Literal}' },
      SECRET: { 'Fn::Sub': ['${Own}', { Own: { Ref: 'Secret' } }] },
    });
    expect(root.Resources.FunctionsStack2.Properties).toEqual({
      TemplateURL: templateUrl('cloudformation-template-functions-stack-2.json'),
      Parameters: {
        DeploymentBucket: { Ref: 'DeploymentBucket' },
        RoleArn: { 'Fn::GetAtt': ['Role', 'Arn'] },
        Table: { Ref: 'Table' },
        TableStreamArn: { 'Fn::GetAtt': ['Table', 'StreamArn'] },
        Secret: { Ref: 'Secret' },
        HttpApi: { Ref: 'HttpApi' },
      },
    });
  });

  it('reads as the single template did once each parameter and output is replaced by its value', () => {
    const original = template();
    const { root, nested } = split();
    const flat = flatten(root, byFile(nested));
    expect(Object.keys(flat).sort()).toEqual(Object.keys(original.Resources).sort());
    for (const [id, resource] of Object.entries(original.Resources)) {
      const { DependsOn: _was, ...rest } = resource;
      const { DependsOn: _is, ...now } = flat[id];
      expect({ id, ...now }).toEqual({ id, ...rest });
    }
    // The root reads a nested function's ARN from its stack's outputs.
    expect(root.Outputs!.AArn.Value).toEqual({ 'Fn::GetAtt': ['FunctionsStack2', 'Outputs.ALambdaFunctionArn'] });
    expect(root.Resources.TwoFunctionsPolicy.Properties.Resources).toEqual([
      { 'Fn::GetAtt': ['FunctionsStack2', 'Outputs.ALambdaFunctionArn'] },
      { 'Fn::Sub': ['name ${CLambdaFunction}', { CLambdaFunction: { 'Fn::GetAtt': ['FunctionsStack1', 'Outputs.CLambdaFunction'] } }] },
    ]);
  });

  it('keeps every DependsOn: within a template as it was, across templates as a dependency of the nested stack', () => {
    const { root, nested } = split();
    // The stage after the stacks that hold the routes it depended on.
    expect(root.Resources.HttpApiStage.DependsOn).toEqual(['FunctionsStack2', 'FunctionsStack1']);
    // B after the endpoint (a root resource), A after C's integration (another nested stack): their stack waits.
    expect(root.Resources.FunctionsStack2.DependsOn).toEqual(['Endpoint', 'FunctionsStack1']);
    expect(root.Resources.FunctionsStack1.DependsOn).toBeUndefined();
    expect(nested[1].template.Resources.ALambdaFunction.DependsOn).toEqual(['ALogGroup']);
    expect(nested[1].template.Resources.HttpApiRouteGetA.DependsOn).toBe('HttpApiIntegrationA');
  });

  it('keeps each function in its stack as other functions come and go', () => {
    const names = 'DEFGHIJKLMNOPQRS'.split('');
    const withNames = (list: string[]): Template => ({
      Resources: Object.assign({ ...shared }, ...list.map((n) => routeFunction(n))),
    });
    const before = split(withNames(names)).nested;
    const after = split(withNames([...names.filter((n) => n !== 'G'), 'T', 'U'])).nested;
    for (const n of names.filter((name) => name !== 'G'))
      expect({ n, stack: stackOf(after, `${n}LambdaFunction`) }).toEqual({ n, stack: stackOf(before, `${n}LambdaFunction`) });
    expect(new Set(before.map((s) => s.id)).size).toBe(2);
  });

  it("names the templates past CloudFormation's quotas", () => {
    const many = { Resources: Object.assign({ ...shared }, ...Array.from({ length: 220 }, (_, i) => routeFunction(`F${i}`))) };
    const { root, nested } = split(many);
    expect(limitViolations(root, 'root')).toEqual([]);
    const problems = nested.flatMap((n) => limitViolations(n.template, n.fileName));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => /resources \(at most 500\)/.test(p))).toBe(true);
    expect(splitTemplate(many, { templateUrl }).nested.flatMap((n) => limitViolations(n.template, n.fileName))).toEqual([]);
  });

  it('refuses a root resource that refers to a function whose stack refers to it: the stacks would wait for each other', () => {
    const t = template();
    // A reads a root parameter that names B and C (so it stays in the root): acyclic in one template,
    // but A's stack would wait for the parameter, which would wait for B's stack, A's own.
    t.Resources.Shared = {
      Type: 'AWS::SSM::Parameter',
      Properties: { Value: { 'Fn::Join': [',', [{ Ref: 'BLambdaFunction' }, { Ref: 'CLambdaFunction' }]] } },
    };
    t.Resources.ALambdaFunction.Properties.Environment.Variables.FUNCTIONS = { Ref: 'Shared' };
    expect(() => split(template())).not.toThrow();
    expect(() => split(t)).toThrow(/the root template: circular dependency/);
  });

  it('refuses to move a function that uses a condition', () => {
    const t = template();
    t.Resources.ALambdaFunction.Condition = 'IsProd';
    expect(() => split(t)).toThrow(/condition/);
  });
});
