// The long-poll's front door: the stage's `eventsEdge` parameter (issue 43). `api` (the default):
// every route behind the HTTP API, whose integrations stop at 30 s, so a poll lasts at most 20 s.
// `cloudfront`: a CloudFront distribution in front of everything, sending `/api/v1/events` and
// `/json/events` to an Application Load Balancer whose Lambda targets run GET and DELETE /events,
// and everything else to the HTTP API; a poll then lasts upstream's heartbeat interval (50 s).
// Why this shape and what it costs: docs/operations.md, "The long-poll's front door"
// (`npm run bench connected` prices both). serverless.yml takes `${file(./edge/index.js):resources}`
// and `:outputs`, functions/routes.js the long-poll's bound and the /json/ hop's host. Plain
// CommonJS, like capacity/index.js.
//
// AWS documentation this follows (read 2026-11): an ALB's Lambda target gets the request as its
// own event (lib/http/alb.ts reads it) and may answer at most 1 MB; the ALB needs two subnets in
// two Availability Zones, and a Lambda permission for elasticloadbalancing.amazonaws.com before
// the target is registered; its idle timeout must outlast the longest request; CloudFront's
// origin response timeout is at most 60 s without a quota increase, and its managed policies
// CachingDisabled, AllViewer and AllViewerExceptHostHeader are named by fixed ids; an HTTP API
// answers only requests addressed to its own host, so the viewer's Host cannot be forwarded to it
// and travels in X-Forwarded-Host, set by a CloudFront Function (lib/http/session.ts viewerHost).

const { subnetResources } = require('../capacity/index.js');

/** An error that serverless prints as its message alone (it prints a rejection's stack). */
const refusal = (message) => Object.assign(new Error(message), { stack: message });

const MODES = ['api', 'cloudfront'];

/**
 * The long-poll's bound behind CloudFront: upstream's heartbeat interval (its Tornado answers an
 * idle poll after about a minute; its clients expect a heartbeat within 45 to 55 s). The function
 * gets 5 s more (functions/routes.js), under CloudFront's 60 s origin response timeout.
 */
const EDGE_POLL_SECONDS = 50;
/** CloudFront's origin response timeout for the load balancer: its largest without a quota increase. */
const ORIGIN_READ_TIMEOUT = 60;
/** The load balancer's idle timeout: past the origin's keep-alive (60 s) and the longest poll. */
const ALB_IDLE_TIMEOUT = 65;
/** The header CloudFront adds to every request it sends the load balancer; the listener forwards none without it. */
const ORIGIN_SECRET_HEADER = 'x-origin-verify';
const MIN_SECRET_LENGTH = 32;
/** The paths CloudFront sends to the load balancer: the long-poll's, at the API and the web app. */
const EVENTS_PATHS = ['/api/v1/events', '/json/events'];

/** CloudFront's managed policies, by their documented ids. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER = '216adef6-5c7f-47e4-b989-5492eafa07d3';
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'POST', 'PATCH', 'DELETE'];

/**
 * The load balancer's targets, by the function resources osls generates (capitalized name +
 * LambdaFunction), in the order of their listener rules: the methods of GET and DELETE /events,
 * then every other method of those paths to the catch-all fallback, which answers 405 with the
 * allowed methods as it does behind the HTTP API.
 */
const TARGETS = [
  { id: 'EventsGet', fn: 'EventsGetLambdaFunction', methods: ['GET', 'HEAD'] },
  { id: 'EventsDelete', fn: 'EventsDeleteLambdaFunction', methods: ['DELETE'] },
  { id: 'EventsOther', fn: 'RouteFallbackLambdaFunction', methods: undefined },
];

/** Viewer request: the Host the viewer addressed, for the origins, which get their own Host (the HTTP API's) or the viewer's. */
const VIEWER_HOST_FUNCTION = [
  'function handler(event) {',
  '  var request = event.request;',
  "  request.headers['x-forwarded-host'] = { value: request.headers.host ? request.headers.host.value : '' };",
  '  return request;',
  '}',
].join('\n');

/** The eventsEdge parameter, checked: `api` or `cloudfront`. */
const edgeMode = async ({ resolveVariable }) => {
  const value = String(await resolveVariable('param:eventsEdge'));
  if (!MODES.includes(value)) {
    throw refusal(
      `The eventsEdge parameter must be api (every route behind the HTTP API, the default) or cloudfront ` +
        `(CloudFront in front, GET /events behind a load balancer), got "${value}"`,
    );
  }
  return value;
};

/**
 * The long-poll's bound in seconds, for every function (EVENTS_LONGPOLL_SECONDS: register tells
 * clients how long a poll may take) and GET /events' timeout (functions/routes.js): the
 * eventsLongPollSeconds parameter behind the HTTP API, upstream's heartbeat interval behind
 * CloudFront (functions/routes.js refuses a bound API Gateway would cut off).
 */
const longPollSeconds = async ({ resolveVariable }) =>
  (await edgeMode({ resolveVariable })) === 'cloudfront' ? EDGE_POLL_SECONDS : Number(await resolveVariable('param:eventsLongPollSeconds'));

/**
 * The settings the cloudfront edge needs, each refused when missing: the secret CloudFront sends
 * the load balancer, and the load balancer's own name and certificate, since the hop from
 * CloudFront to it carries credentials and the secret and so must be HTTPS. Optional: the
 * distribution's own names and their certificate (in us-east-1), for organizations' subdomains.
 */
const edgeSettings = async (resolveVariable) => {
  const get = (name) => resolveVariable(`param:${name}, ''`).then(String);
  const [secret, originDomain, originCertificateArn, aliases, certificateArn] = await Promise.all(
    ['edgeOriginSecret', 'edgeOriginDomain', 'edgeOriginCertificateArn', 'edgeAliases', 'edgeCertificateArn'].map(get),
  );
  if (secret.length < MIN_SECRET_LENGTH) {
    throw refusal(
      `eventsEdge cloudfront needs an edgeOriginSecret of at least ${MIN_SECRET_LENGTH} characters, which CloudFront sends ` +
        'the load balancer and its listener requires: pass --param "edgeOriginSecret=$(openssl rand -hex 32)"',
    );
  }
  if (!originDomain || !originCertificateArn) {
    throw refusal(
      'eventsEdge cloudfront needs edgeOriginDomain and edgeOriginCertificateArn: the load balancer name CloudFront reaches ' +
        'over HTTPS (a DNS name you point at the output EdgeLoadBalancerDnsName) and its ACM certificate in this region',
    );
  }
  const names = aliases ? aliases.split(',').map((a) => a.trim()) : [];
  if (names.length > 0 && !certificateArn) {
    throw refusal('edgeAliases needs edgeCertificateArn: an ACM certificate in us-east-1 covering every name');
  }
  return { secret, originDomain, originCertificateArn, aliases: names, certificateArn };
};

const ref = (id) => ({ Ref: id });
const arnOf = (id) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const SUBNETS = ['EdgeSubnet1', 'EdgeSubnet2'];

/** The load balancer's network: a VPC with two public subnets in two zones, nothing else in it. */
const network = () => {
  const subnets = subnetResources({ vpc: 'EdgeVpc', routeTable: 'EdgeRouteTable', ids: SUBNETS, cidrPrefix: '10.30' });
  return {
    EdgeVpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.30.0.0/16' } },
    ...subnets,
    EdgeInternetGateway: { Type: 'AWS::EC2::InternetGateway' },
    EdgeGatewayAttachment: {
      Type: 'AWS::EC2::VPCGatewayAttachment',
      Properties: { VpcId: ref('EdgeVpc'), InternetGatewayId: ref('EdgeInternetGateway') },
    },
    EdgeRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('EdgeVpc') } },
    EdgeDefaultRoute: {
      Type: 'AWS::EC2::Route',
      DependsOn: ['EdgeGatewayAttachment'],
      Properties: { RouteTableId: ref('EdgeRouteTable'), DestinationCidrBlock: '0.0.0.0/0', GatewayId: ref('EdgeInternetGateway') },
    },
    EdgeLoadBalancerSecurityGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: {
        GroupDescription: 'The long-poll load balancer: HTTPS in (the listener forwards only what carries the origin secret)',
        VpcId: ref('EdgeVpc'),
        SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }],
      },
    },
  };
};

/** The load balancer, its HTTPS listener, and one target group and rule per TARGETS entry. */
const loadBalancer = (settings) => {
  const out = {
    EdgeLoadBalancer: {
      Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
      DependsOn: ['EdgeGatewayAttachment'],
      Properties: {
        Type: 'application',
        Scheme: 'internet-facing',
        Subnets: SUBNETS.map(ref),
        SecurityGroups: [ref('EdgeLoadBalancerSecurityGroup')],
        LoadBalancerAttributes: [
          { Key: 'idle_timeout.timeout_seconds', Value: String(ALB_IDLE_TIMEOUT) },
          { Key: 'routing.http.drop_invalid_header_fields.enabled', Value: 'true' },
        ],
      },
    },
    // Anything without the secret, or on another path, never reaches a function.
    EdgeListener: {
      Type: 'AWS::ElasticLoadBalancingV2::Listener',
      Properties: {
        LoadBalancerArn: ref('EdgeLoadBalancer'),
        Port: 443,
        Protocol: 'HTTPS',
        SslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
        Certificates: [{ CertificateArn: settings.originCertificateArn }],
        DefaultActions: [
          { Type: 'fixed-response', FixedResponseConfig: { StatusCode: '403', ContentType: 'text/plain', MessageBody: 'Forbidden' } },
        ],
      },
    },
  };
  TARGETS.forEach((target, i) => {
    out[`${target.id}InvokedByAlb`] = {
      Type: 'AWS::Lambda::Permission',
      Properties: {
        FunctionName: arnOf(target.fn),
        Action: 'lambda:InvokeFunction',
        Principal: 'elasticloadbalancing.amazonaws.com',
        SourceAccount: ref('AWS::AccountId'),
      },
    };
    out[`${target.id}TargetGroup`] = {
      Type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
      DependsOn: [`${target.id}InvokedByAlb`],
      Properties: { TargetType: 'lambda', Targets: [{ Id: arnOf(target.fn) }] },
    };
    const conditions = [
      { Field: 'path-pattern', PathPatternConfig: { Values: EVENTS_PATHS } },
      { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: ORIGIN_SECRET_HEADER, Values: [settings.secret] } },
    ];
    if (target.methods) conditions.push({ Field: 'http-request-method', HttpRequestMethodConfig: { Values: target.methods } });
    out[`${target.id}ListenerRule`] = {
      Type: 'AWS::ElasticLoadBalancingV2::ListenerRule',
      Properties: {
        ListenerArn: ref('EdgeListener'),
        Priority: i + 1,
        Conditions: conditions,
        Actions: [{ Type: 'forward', TargetGroupArn: ref(`${target.id}TargetGroup`) }],
      },
    };
  });
  return out;
};

/** A cache behavior that caches nothing and runs the viewer-host function. */
const behavior = (origin, originRequestPolicy) => ({
  TargetOriginId: origin,
  ViewerProtocolPolicy: 'https-only',
  AllowedMethods: ALL_METHODS,
  CachedMethods: ['GET', 'HEAD'],
  CachePolicyId: CACHING_DISABLED,
  OriginRequestPolicyId: originRequestPolicy,
  Compress: false,
  FunctionAssociations: [
    { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': ['EdgeViewerHostFunction', 'FunctionMetadata.FunctionARN'] } },
  ],
});

/** The distribution: the long-poll's paths to the load balancer (the viewer's Host kept), the rest to the HTTP API. */
const distribution = (settings, name) => ({
  EdgeViewerHostFunction: {
    Type: 'AWS::CloudFront::Function',
    Properties: {
      Name: `${name}-viewer-host`,
      AutoPublish: true,
      FunctionConfig: { Comment: 'The viewer Host in X-Forwarded-Host', Runtime: 'cloudfront-js-2.0' },
      FunctionCode: VIEWER_HOST_FUNCTION,
    },
  },
  EdgeDistribution: {
    Type: 'AWS::CloudFront::Distribution',
    Properties: {
      DistributionConfig: {
        Enabled: true,
        Comment: `${name}: GET /events behind a load balancer, the rest behind the HTTP API`,
        HttpVersion: 'http2and3',
        PriceClass: 'PriceClass_100',
        ...(settings.aliases.length > 0
          ? {
              Aliases: settings.aliases,
              ViewerCertificate: {
                AcmCertificateArn: settings.certificateArn,
                SslSupportMethod: 'sni-only',
                MinimumProtocolVersion: 'TLSv1.2_2021',
              },
            }
          : { ViewerCertificate: { CloudFrontDefaultCertificate: true } }),
        Origins: [
          {
            Id: 'api',
            DomainName: { 'Fn::Sub': '${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}' },
            CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'], OriginReadTimeout: 30 },
          },
          {
            Id: 'events',
            DomainName: settings.originDomain,
            CustomOriginConfig: {
              OriginProtocolPolicy: 'https-only',
              OriginSSLProtocols: ['TLSv1.2'],
              OriginReadTimeout: ORIGIN_READ_TIMEOUT,
              OriginKeepaliveTimeout: 60,
            },
            OriginCustomHeaders: [{ HeaderName: ORIGIN_SECRET_HEADER, HeaderValue: settings.secret }],
          },
        ],
        DefaultCacheBehavior: behavior('api', ALL_VIEWER_EXCEPT_HOST),
        CacheBehaviors: EVENTS_PATHS.map((PathPattern) => ({ PathPattern, ...behavior('events', ALL_VIEWER) })),
      },
    },
  },
});

/** serverless.yml `resources` (Resources): the edge's resources, or none. */
const resources = async ({ resolveVariable }) => {
  if ((await edgeMode({ resolveVariable })) !== 'cloudfront') return {};
  const settings = await edgeSettings(resolveVariable);
  const [service, stage] = await Promise.all([resolveVariable('self:service'), resolveVariable('sls:stage')]);
  return { ...network(), ...loadBalancer(settings), ...distribution(settings, `${service}-${stage}`) };
};

/** serverless.yml `resources` (Outputs): where clients connect, and what edgeOriginDomain must point at. */
const outputs = async ({ resolveVariable }) => {
  if ((await edgeMode({ resolveVariable })) !== 'cloudfront') return {};
  return {
    EdgeDistributionDomainName: { Value: { 'Fn::GetAtt': ['EdgeDistribution', 'DomainName'] } },
    EdgeLoadBalancerDnsName: { Value: { 'Fn::GetAtt': ['EdgeLoadBalancer', 'DNSName'] } },
  };
};

/**
 * The Host the HTTP API's /json/ hop passes on (functions/routes.js jsonRouteResources): the one
 * the API was addressed at, or behind CloudFront the viewer's, which CloudFront's function put in
 * X-Forwarded-Host (the API itself was addressed at its own host).
 */
const jsonHopHost = (mode) => (mode === 'cloudfront' ? '$request.header.x-forwarded-host' : '$context.domainName');

module.exports = { EDGE_POLL_SECONDS, EVENTS_PATHS, ORIGIN_SECRET_HEADER, edgeMode, jsonHopHost, longPollSeconds, outputs, resources };
