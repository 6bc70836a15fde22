// Where GET /events runs: the stage's `eventsCapacity` parameter (issue 27). `standard` (the
// default): standard Lambda, one waiting poll per execution environment, nothing running (or
// billed) while no one waits. `managed`: Lambda Managed Instances, many waiting polls per execution
// environment on EC2 instances Lambda runs in this stack's VPC; the polls of one environment share
// one reader per event stream shard head (lib/events/watcher.ts), which is what makes a waiting
// client cost cents there. serverless.yml takes `${file(./capacity/index.js):resources}` and
// `:extensions` (osls does not know capacity providers, so they are plain CloudFormation), and
// functions/routes.js the function settings and the checks. Plain CommonJS, like tables/index.js.
// docs/operations.md, "Where GET /events runs" and "Connected clients in one process".
//
// AWS documentation this follows (Lambda Managed Instances, read 2026-11): Node.js 22 or later
// (provider.runtime is nodejs22.x); the capacity provider launches instances in the subnets and
// security groups it is given, with an operator role Lambda assumes (trust lambda.amazonaws.com,
// managed policy AWSLambdaManagedEC2ResourceOperator); the instances' traffic, logs included,
// leaves through their network interfaces in those subnets, so the subnets need a way to DynamoDB
// (a gateway endpoint, free) and to CloudWatch Logs (an interface endpoint); a function created
// with a CapacityProviderConfig by CloudFormation gets a $LATEST.PUBLISHED version, which an
// unqualified invocation (API Gateway's) runs; memory 2 to 32 GB at 2, 4 or 8 GiB per vCPU; the
// Node.js runtime runs one worker thread per vCPU (AWS_LAMBDA_NODEJS_WORKER_COUNT overrides it),
// initializes the function once per worker, and sends each worker many requests at once; at least
// 3 execution environments are kept (one per Availability Zone).

/** An error that serverless prints as its message alone (it prints a rejection's stack). */
const refusal = (message) => Object.assign(new Error(message), { stack: message });

const MODES = ['standard', 'managed'];

/**
 * Measured (`npm run bench connected`, docs/operations.md, "Connected clients in one process"):
 * 1,000 waiting polls in one Node.js process, each a call of the GET /events handler, took 283 µs
 * of CPU a second each (2026-11-27, idle machine, the producer's sends included); memory per poll
 * is the largest of that day's idle runs, 150 KB (rss, before garbage collection).
 */
const MEASURED_PER_POLL = { vcpu: 283e-6, mb: 0.15 };

/**
 * One execution environment: 1 vCPU, so the runtime runs one worker thread and the process (one
 * watcher per shard head) holds every poll the environment is sent, at 2 GiB per vCPU, the
 * smallest ratio (the polls need CPU far more than memory).
 */
const ENVIRONMENT = { vcpus: 1, gibPerVcpu: 2 };
/** The function's memory follows: 1 vCPU × 2 GiB (Lambda Managed Instances' minimum, 2,048 MB). */
const MANAGED_MEMORY_MB = ENVIRONMENT.vcpus * ENVIRONMENT.gibPerVcpu * 1024;
/** Lambda's most concurrent requests per execution environment. */
const MAX_CONCURRENCY_CAP = 1600;

/**
 * Waiting polls per environment (PerExecutionEnvironmentMaxConcurrency): the least of Lambda's
 * cap (1,600), half the environment's vCPU at the measured CPU per poll (0.5 / 283 µs = 1,766; the
 * other half for what a wake costs: an organization-wide event wakes every poll at once, and each
 * then writes its queue and answers), and half its memory at the measured memory per poll
 * (1,024 MB / 0.15 MB = 6,826). So 1,600, Lambda's cap; 1,600 polls take 0.45 vCPU and about
 * 240 MB of 2,048 MB. The same rule as scripts/bench-connected.ts pollsPerEnvironment.
 */
const POLLS_PER_ENVIRONMENT = Math.floor(
  Math.min(MAX_CONCURRENCY_CAP, (0.5 * ENVIRONMENT.vcpus) / MEASURED_PER_POLL.vcpu, (0.5 * MANAGED_MEMORY_MB) / MEASURED_PER_POLL.mb),
);

/**
 * The instances: Graviton (arm64, as provider.architecture; a capacity provider has one
 * architecture and its functions must match it), compute optimized at 2 GiB per vCPU, the ratio
 * the environments use, and the smallest size Lambda runs (.large: 2 vCPU, 4 GiB; $0.0725 an hour
 * in us-east-1, plus Lambda's 15% management fee: scripts/bench-connected.ts MANAGED_PRICES), so
 * the floor of 3 instances costs least. The price per vCPU is the same for every size of a
 * family, so a bigger size would only matter if Lambda's own share of an instance (not documented
 * in the pages read) left a .large room for one environment rather than two.
 */
const INSTANCE_TYPE = 'c7g.large';
const INSTANCE_VCPUS = 2;
/** Lambda keeps at least this many execution environments of the function (one per Availability Zone). */
const MIN_ENVIRONMENTS = 3;
/**
 * A shard head item should take at most 1,000 reads a second, and a reader reads its head up to 10
 * times in the first second after an event (functions/routes.js WAITING_CLIENTS_PER_SHARD). On
 * managed instances each environment has one reader per head its polls wait on, whatever their
 * number, and an environment holding many polls waits on every shard: so at most 100 environments.
 */
const MAX_READERS_PER_HEAD = 100;
/** Three private subnets, one per Availability Zone: where the instances run. */
const AVAILABILITY_ZONES = 3;

/** The eventsCapacity parameter, checked: `standard` or `managed`. */
const capacityMode = async ({ resolveVariable }) => {
  const value = String(await resolveVariable('param:eventsCapacity'));
  if (!MODES.includes(value)) {
    throw refusal(
      `The eventsCapacity parameter must be standard (standard Lambda, the default) or managed (Lambda Managed Instances), got "${value}"`,
    );
  }
  return value;
};

/**
 * Execution environments for `maxWaiting` waiting clients on managed instances (the function's
 * MaxExecutionEnvironments): enough for them at POLLS_PER_ENVIRONMENT each, and Lambda's floor of
 * 3. Refused past what the shard heads take (MAX_READERS_PER_HEAD).
 */
const managedEnvironments = (maxWaiting) => {
  const environments = Math.max(MIN_ENVIRONMENTS, Math.ceil(maxWaiting / POLLS_PER_ENVIRONMENT));
  if (environments > MAX_READERS_PER_HEAD) {
    throw refusal(
      `eventsMaxConcurrency ${maxWaiting} needs ${environments} execution environments of ${POLLS_PER_ENVIRONMENT} waiting polls ` +
        `on managed instances; each reads every shard head, which takes at most ${MAX_READERS_PER_HEAD} readers ` +
        `(docs/data-model.md, "Capacity"): at most ${MAX_READERS_PER_HEAD * POLLS_PER_ENVIRONMENT} waiting clients`,
    );
  }
  return environments;
};

/**
 * What a long-poll route's function (GET /events) gets on managed instances, besides its handler,
 * timeout and events (functions/routes.js): the environment's memory; one Node.js worker per
 * environment, so that all its polls share one watcher even if Lambda gave it more vCPUs; and no
 * numbered versions (osls publishes one per deploy otherwise, and each published version of a
 * managed function gets execution environments of its own). No reservedConcurrency: the cap is
 * the function's MaxExecutionEnvironments × PerExecutionEnvironmentMaxConcurrency (extensions).
 */
const managedFunction = () => ({
  memorySize: MANAGED_MEMORY_MB,
  versionFunction: false,
  environment: { AWS_LAMBDA_NODEJS_WORKER_COUNT: String(ENVIRONMENT.vcpus) },
});

const ref = (id) => ({ Ref: id });
const arnOf = (id) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const subnetIds = Array.from({ length: AVAILABILITY_ZONES }, (_, i) => `EventsSubnet${i + 1}`);

/**
 * Subnets of a VPC of this stack, one per Availability Zone, each a /20 of `cidrPrefix`.0.0/16,
 * with its association to the route table (no public addresses: what needs one, a load balancer,
 * has its own). Also the cloudfront edge's (edge/index.js).
 */
const subnetResources = ({ vpc, routeTable, ids, cidrPrefix }) => {
  const out = {};
  ids.forEach((id, i) => {
    out[id] = {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref(vpc),
        CidrBlock: `${cidrPrefix}.${i * 16}.0/20`,
        AvailabilityZone: { 'Fn::Select': [i, { 'Fn::GetAZs': '' }] },
        MapPublicIpOnLaunch: false,
      },
    };
    out[`${id}RouteTableAssociation`] = {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref(id), RouteTableId: ref(routeTable) },
    };
  });
  return out;
};

/** The VPC, its endpoints, the operator role and the capacity provider (logical ids Events*). */
const managedResources = (name, maxWaiting) => {
  const environments = managedEnvironments(maxWaiting);
  const subnets = subnetResources({ vpc: 'EventsVpc', routeTable: 'EventsRouteTable', ids: subnetIds, cidrPrefix: '10.20' });
  return {
    // Private: no internet gateway, no NAT. The instances reach DynamoDB and CloudWatch Logs
    // through the two endpoints below, and nothing else (GET /events uses nothing else).
    EventsVpc: {
      Type: 'AWS::EC2::VPC',
      // DNS hostnames and support: the logs endpoint's private DNS name needs both.
      Properties: { CidrBlock: '10.20.0.0/16', EnableDnsSupport: true, EnableDnsHostnames: true },
    },
    ...subnets,
    EventsRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('EventsVpc') } },
    // DynamoDB through a gateway endpoint: a route in the subnets' table, no hourly charge.
    EventsDynamoDbEndpoint: {
      Type: 'AWS::EC2::VPCEndpoint',
      Properties: {
        VpcId: ref('EventsVpc'),
        VpcEndpointType: 'Gateway',
        ServiceName: { 'Fn::Sub': 'com.amazonaws.${AWS::Region}.dynamodb' },
        RouteTableIds: [ref('EventsRouteTable')],
      },
    },
    // The function's logs: an interface endpoint in each subnet (billed per hour and per GB).
    EventsLogsEndpoint: {
      Type: 'AWS::EC2::VPCEndpoint',
      Properties: {
        VpcId: ref('EventsVpc'),
        VpcEndpointType: 'Interface',
        ServiceName: { 'Fn::Sub': 'com.amazonaws.${AWS::Region}.logs' },
        SubnetIds: subnetIds.map(ref),
        SecurityGroupIds: [ref('EventsEndpointSecurityGroup')],
        PrivateDnsEnabled: true,
      },
    },
    // The instances: nothing comes in; HTTPS out, which only the endpoints can answer.
    EventsInstanceSecurityGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: {
        GroupDescription: 'GET /events managed instances: HTTPS out to the VPC endpoints only (no route elsewhere)',
        VpcId: ref('EventsVpc'),
        SecurityGroupEgress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }],
      },
    },
    EventsEndpointSecurityGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: {
        GroupDescription: 'GET /events VPC endpoints: HTTPS from the managed instances',
        VpcId: ref('EventsVpc'),
        SecurityGroupIngress: [
          { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, SourceSecurityGroupId: ref('EventsInstanceSecurityGroup') },
        ],
      },
    },
    // What Lambda acts as to launch and manage the instances.
    EventsCapacityOperatorRole: {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
        },
        ManagedPolicyArns: [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/AWSLambdaManagedEC2ResourceOperator' }],
      },
    },
    EventsCapacityProvider: {
      Type: 'AWS::Lambda::CapacityProvider',
      Properties: {
        CapacityProviderName: name,
        VpcConfig: { SubnetIds: subnetIds.map(ref), SecurityGroupIds: [ref('EventsInstanceSecurityGroup')] },
        PermissionsConfig: { CapacityProviderOperatorRoleArn: arnOf('EventsCapacityOperatorRole') },
        InstanceRequirements: { Architectures: ['arm64'], AllowedInstanceTypes: [INSTANCE_TYPE] },
        // A cost ceiling: room for every environment on an instance of its own.
        CapacityProviderScalingConfig: { ScalingMode: 'Auto', MaxVCpuCount: environments * INSTANCE_VCPUS },
      },
    },
  };
};

/** The function resource osls generates for GET /events (its naming: capitalized name + LambdaFunction). */
const EVENTS_FUNCTION = 'EventsGetLambdaFunction';

/**
 * GET /events' function on the capacity provider: PerExecutionEnvironmentMaxConcurrency and the
 * memory ratio above, its environments between Lambda's floor and what eventsMaxConcurrency
 * needs, republished as $LATEST.PUBLISHED (what API Gateway's unqualified invocation runs) at
 * each deploy, and created only once its subnets can reach DynamoDB and CloudWatch Logs.
 */
const managedExtensions = (maxWaiting) => ({
  [EVENTS_FUNCTION]: {
    Properties: {
      CapacityProviderConfig: {
        LambdaManagedInstancesCapacityProviderConfig: {
          CapacityProviderArn: arnOf('EventsCapacityProvider'),
          PerExecutionEnvironmentMaxConcurrency: POLLS_PER_ENVIRONMENT,
          ExecutionEnvironmentMemoryGiBPerVCpu: ENVIRONMENT.gibPerVcpu,
        },
      },
      FunctionScalingConfig: { MinExecutionEnvironments: MIN_ENVIRONMENTS, MaxExecutionEnvironments: managedEnvironments(maxWaiting) },
      PublishToLatestPublished: true,
    },
    DependsOn: ['EventsDynamoDbEndpoint', 'EventsLogsEndpoint', ...subnetIds.map((id) => `${id}RouteTableAssociation`)],
  },
});

const maxWaitingOf = async (resolveVariable) => Number(await resolveVariable('param:eventsMaxConcurrency'));

/** serverless.yml `resources` (Resources): the managed-instances resources, or none. */
const resources = async ({ resolveVariable }) => {
  if ((await capacityMode({ resolveVariable })) !== 'managed') return {};
  const [service, stage] = await Promise.all([resolveVariable('self:service'), resolveVariable('sls:stage')]);
  return managedResources(`${service}-${stage}-events`, await maxWaitingOf(resolveVariable));
};

/** serverless.yml `resources` (extensions): GET /events' function on the capacity provider, or nothing. */
const extensions = async ({ resolveVariable }) => {
  if ((await capacityMode({ resolveVariable })) !== 'managed') return {};
  return managedExtensions(await maxWaitingOf(resolveVariable));
};

module.exports = {
  EVENTS_FUNCTION,
  INSTANCE_TYPE,
  MANAGED_MEMORY_MB,
  MEASURED_PER_POLL,
  MIN_ENVIRONMENTS,
  POLLS_PER_ENVIRONMENT,
  capacityMode,
  extensions,
  managedEnvironments,
  managedFunction,
  resources,
  subnetResources,
};
