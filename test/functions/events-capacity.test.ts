// capacity/index.js: the CloudFormation serverless.yml adds for GET /events on Lambda Managed
// Instances (`--param eventsCapacity=managed`), and nothing for standard Lambda. The template as
// resolved by `serverless print` is checked in test/deploy/serverless-package.test.ts.
type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Ctx = { resolveVariable: (name: string) => Promise<string> };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const capacity = require('../../capacity/index.js') as {
  EVENTS_FUNCTION: string;
  INSTANCE_TYPE: string;
  MANAGED_MEMORY_MB: number;
  MEASURED_PER_POLL: { vcpu: number; mb: number };
  POLLS_PER_ENVIRONMENT: number;
  managedEnvironments: (maxWaiting: number) => number;
  resources: (ctx: Ctx) => Promise<Record<string, Resource>>;
  extensions: (ctx: Ctx) => Promise<Record<string, Resource>>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { loadRoutes } = require('../../functions/routes.js') as { loadRoutes: () => { name: string; longPoll?: true }[] };
// osls's own naming of a function's CloudFormation resource.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const naming = require('serverless/lib/plugins/aws/lib/naming') as { getLambdaLogicalId: (name: string) => string };

const params = (values: Record<string, string>): Ctx => ({
  resolveVariable: async (name) =>
    ({ 'param:eventsCapacity': 'managed', 'param:eventsMaxConcurrency': '500', 'self:service': 'chat', 'sls:stage': 'prod', ...values })[
      name
    ]!,
});
const managed = params({});

describe('capacity/index.js', () => {
  it('adds nothing for standard Lambda, the default', async () => {
    expect(await capacity.resources(params({ 'param:eventsCapacity': 'standard' }))).toEqual({});
    expect(await capacity.extensions(params({ 'param:eventsCapacity': 'standard' }))).toEqual({});
  });

  it('refuses a mode it does not know, naming the two it does', async () => {
    const message =
      'The eventsCapacity parameter must be standard (standard Lambda, the default) or managed (Lambda Managed Instances), got "ec2"';
    await expect(capacity.resources(params({ 'param:eventsCapacity': 'ec2' }))).rejects.toThrow(message);
    await expect(capacity.extensions(params({ 'param:eventsCapacity': 'ec2' }))).rejects.toThrow(message);
  });

  it('holds 1,600 waiting polls per 1-vCPU, 2 GiB environment (the cap of Lambda), within half its vCPU at the measured CPU per poll and well within its memory', () => {
    expect(capacity.MANAGED_MEMORY_MB).toBe(2048);
    expect(capacity.POLLS_PER_ENVIRONMENT).toBe(1600);
    expect(capacity.POLLS_PER_ENVIRONMENT * capacity.MEASURED_PER_POLL.vcpu).toBeLessThanOrEqual(0.5);
    expect(capacity.POLLS_PER_ENVIRONMENT * capacity.MEASURED_PER_POLL.mb).toBeLessThan(capacity.MANAGED_MEMORY_MB / 2);
  });

  it.each([
    [1, 3],
    [500, 3],
    [4800, 3],
    [4801, 4],
    [160000, 100],
  ])('sizes %i waiting clients at %i execution environments (Lambda keeps 3 at least)', (clients, environments) => {
    expect(capacity.managedEnvironments(clients)).toBe(environments);
  });

  it('extends the function osls generates for the long-poll route', () => {
    const [longPoll] = loadRoutes().filter((r) => r.longPoll);
    expect(capacity.EVENTS_FUNCTION).toBe(naming.getLambdaLogicalId(longPoll.name));
  });

  it('puts GET /events on the capacity provider with the chosen concurrency and memory ratio, republished at each deploy, once its subnets reach DynamoDB and CloudWatch Logs', async () => {
    const extensions = await capacity.extensions(params({ 'param:eventsMaxConcurrency': '10000' }));
    expect(Object.keys(extensions)).toEqual(['EventsGetLambdaFunction']);
    const fn = extensions.EventsGetLambdaFunction;
    expect(fn.Properties).toEqual({
      CapacityProviderConfig: {
        LambdaManagedInstancesCapacityProviderConfig: {
          CapacityProviderArn: { 'Fn::GetAtt': ['EventsCapacityProvider', 'Arn'] },
          PerExecutionEnvironmentMaxConcurrency: 1600,
          ExecutionEnvironmentMemoryGiBPerVCpu: 2,
        },
      },
      FunctionScalingConfig: { MinExecutionEnvironments: 3, MaxExecutionEnvironments: 7 },
      PublishToLatestPublished: true,
    });
    const resources = await capacity.resources(managed);
    expect(fn.DependsOn!.map((id) => resources[id]?.Type).sort()).toEqual([
      'AWS::EC2::SubnetRouteTableAssociation',
      'AWS::EC2::SubnetRouteTableAssociation',
      'AWS::EC2::SubnetRouteTableAssociation',
      'AWS::EC2::VPCEndpoint',
      'AWS::EC2::VPCEndpoint',
    ]);
  });

  it('refers only to resources it declares, to the function it extends and to pseudo parameters', async () => {
    const resources = await capacity.resources(managed);
    const extensions = await capacity.extensions(managed);
    const targets: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const o = value as Record<string, unknown>;
        if (typeof o.Ref === 'string') targets.push(o.Ref);
        if (Array.isArray(o['Fn::GetAtt'])) targets.push(o['Fn::GetAtt'][0] as string);
        Object.values(o).forEach(walk);
      }
    };
    walk([resources, extensions]);
    for (const ext of Object.values(extensions)) targets.push(...(ext.DependsOn ?? []));
    const unknown = targets.filter((t) => !(t in resources) && !t.startsWith('AWS::'));
    expect(targets.length).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  describe('the managed-instances resources', () => {
    let resources: Record<string, Resource>;
    const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

    beforeAll(async () => {
      resources = await capacity.resources(managed);
    });

    it('are a private VPC: three subnets in three Availability Zones, one route table, no internet gateway or NAT', () => {
      const subnets = ofType('AWS::EC2::Subnet');
      expect(subnets).toHaveLength(3);
      expect(subnets.map(([, s]) => s.Properties.AvailabilityZone)).toEqual(
        [0, 1, 2].map((i) => ({ 'Fn::Select': [i, { 'Fn::GetAZs': '' }] })),
      );
      expect(subnets.every(([, s]) => s.Properties.VpcId.Ref === 'EventsVpc' && s.Properties.MapPublicIpOnLaunch === false)).toBe(true);
      const associations = ofType('AWS::EC2::SubnetRouteTableAssociation').map(([, a]) => a.Properties);
      expect(associations.map((a) => a.SubnetId.Ref).sort()).toEqual(subnets.map(([id]) => id).sort());
      expect(associations.every((a) => a.RouteTableId.Ref === 'EventsRouteTable')).toBe(true);
      expect(ofType('AWS::EC2::InternetGateway')).toEqual([]);
      expect(ofType('AWS::EC2::NatGateway')).toEqual([]);
      expect(ofType('AWS::EC2::Route')).toEqual([]);
    });

    it('reach DynamoDB through a gateway endpoint on that route table, and CloudWatch Logs through an interface endpoint in every subnet', () => {
      const dynamo = resources.EventsDynamoDbEndpoint.Properties;
      expect(dynamo).toMatchObject({
        VpcEndpointType: 'Gateway',
        ServiceName: { 'Fn::Sub': 'com.amazonaws.${AWS::Region}.dynamodb' },
        RouteTableIds: [{ Ref: 'EventsRouteTable' }],
      });
      const logs = resources.EventsLogsEndpoint.Properties;
      expect(logs).toMatchObject({
        VpcEndpointType: 'Interface',
        ServiceName: { 'Fn::Sub': 'com.amazonaws.${AWS::Region}.logs' },
        PrivateDnsEnabled: true,
      });
      expect(logs.SubnetIds).toEqual(ofType('AWS::EC2::Subnet').map(([id]) => ({ Ref: id })));
      // The endpoint takes HTTPS from the instances, which take nothing in.
      expect(resources.EventsEndpointSecurityGroup.Properties.SecurityGroupIngress).toEqual([
        { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, SourceSecurityGroupId: { Ref: 'EventsInstanceSecurityGroup' } },
      ]);
      expect(resources.EventsInstanceSecurityGroup.Properties).not.toHaveProperty('SecurityGroupIngress');
      expect(resources.EventsVpc.Properties).toMatchObject({ EnableDnsSupport: true, EnableDnsHostnames: true });
    });

    it("let Lambda manage the instances through an operator role with AWS's managed policy", () => {
      expect(resources.EventsCapacityOperatorRole.Properties).toEqual({
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
        },
        ManagedPolicyArns: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/AWSLambdaManagedEC2ResourceOperator' }],
      });
    });

    it('run one capacity provider of arm64 c7g.large instances in those subnets, at most one instance per environment', () => {
      expect(ofType('AWS::Lambda::CapacityProvider')).toHaveLength(1);
      expect(resources.EventsCapacityProvider.Properties).toEqual({
        CapacityProviderName: 'chat-prod-events',
        VpcConfig: {
          SubnetIds: ofType('AWS::EC2::Subnet').map(([id]) => ({ Ref: id })),
          SecurityGroupIds: [{ Ref: 'EventsInstanceSecurityGroup' }],
        },
        PermissionsConfig: { CapacityProviderOperatorRoleArn: { 'Fn::GetAtt': ['EventsCapacityOperatorRole', 'Arn'] } },
        InstanceRequirements: { Architectures: ['arm64'], AllowedInstanceTypes: ['c7g.large'] },
        CapacityProviderScalingConfig: { ScalingMode: 'Auto', MaxVCpuCount: 6 },
      });
    });
  });
});
