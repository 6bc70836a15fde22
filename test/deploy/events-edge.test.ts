// The long-poll's front door as `serverless print` resolves it (edge/index.js): with eventsEdge
// cloudfront, a distribution sending /api/v1/events and /json/events to a load balancer whose
// listener forwards only what carries CloudFront's secret, to GET and DELETE /events and the
// fallback, and everything else to the HTTP API with the viewer's host in X-Forwarded-Host; the
// poll then lasts 50 s everywhere (register tells clients so). None of it by default.
import { serverless, UPLOAD_URL_SECRET } from '../helpers/serverless-cli';

type Resolver = { resolveVariable: (name: string) => Promise<string | undefined> };
// Plain CommonJS, as serverless.yml loads it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const edge = require('../../edge/index.js') as { resources: (r: Resolver) => Promise<Record<string, Resource>> };

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Printed = {
  provider: { environment: Record<string, unknown> };
  functions: Record<string, { timeout: number }>;
  resources: { Resources: Record<string, Resource>; Outputs?: Record<string, any> };
};

const SECRET = 's'.repeat(40);
const EDGE = [
  'eventsEdge=cloudfront',
  `edgeOriginSecret=${SECRET}`,
  'edgeOriginDomain=events-origin.chat.example.com',
  'edgeOriginCertificateArn=arn:aws:acm:us-east-1:123456789012:certificate/origin',
  'edgeAliases=chat.example.com,*.chat.example.com',
  'edgeCertificateArn=arn:aws:acm:us-east-1:123456789012:certificate/viewer',
];

const print = async (params: string[]): Promise<Printed> => {
  const args = ['print', '--param', `uploadUrlSecret=${UPLOAD_URL_SECRET}`, ...params.flatMap((p) => ['--param', p]), '--format', 'json'];
  const result = await serverless(args);
  expect(result).toMatchObject({ ok: true });
  return JSON.parse(result.output) as Printed;
};

/** Every Ref and Fn::GetAtt target inside `value`. */
const referenced = (value: unknown, out = new Set<string>()): Set<string> => {
  if (Array.isArray(value)) for (const v of value) referenced(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'Ref' && typeof v === 'string') out.add(v);
      else if (key === 'Fn::GetAtt' && Array.isArray(v)) out.add(String(v[0]));
      else referenced(v, out);
    }
  }
  return out;
};

describe('eventsEdge cloudfront in the deployed configuration', () => {
  let printed: Printed;
  let resources: Record<string, Resource>;
  beforeAll(async () => {
    printed = await print(EDGE);
    resources = printed.resources.Resources;
  }, 180_000);

  it('makes the long-poll 50 s for every function (register announces it) and gives GET /events 55 s, under CloudFront 60 s', () => {
    expect(String(printed.provider.environment.EVENTS_LONGPOLL_SECONDS)).toBe('50');
    expect(printed.functions.eventsGet.timeout).toBe(55);
    const events = resources.EdgeDistribution.Properties.DistributionConfig.Origins.find((o: { Id: string }) => o.Id === 'events');
    expect(events.CustomOriginConfig.OriginReadTimeout).toBe(60);
    const idle = resources.EdgeLoadBalancer.Properties.LoadBalancerAttributes.find(
      (a: { Key: string }) => a.Key === 'idle_timeout.timeout_seconds',
    );
    expect(Number(idle.Value)).toBeGreaterThan(60);
  });

  it('sends the two long-poll paths to the load balancer with the viewer Host, and the rest to the HTTP API without it', () => {
    const config = resources.EdgeDistribution.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: 'api',
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
    });
    expect(config.CacheBehaviors.map((b: Record<string, string>) => [b.PathPattern, b.TargetOriginId, b.OriginRequestPolicyId])).toEqual([
      ['/api/v1/events', 'events', '216adef6-5c7f-47e4-b989-5492eafa07d3'],
      ['/json/events', 'events', '216adef6-5c7f-47e4-b989-5492eafa07d3'],
    ]);
    for (const b of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(b.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'POST', 'PATCH', 'DELETE']);
      expect(b.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': ['EdgeViewerHostFunction', 'FunctionMetadata.FunctionARN'] } },
      ]);
    }
    const [api, events] = config.Origins;
    expect(api).toMatchObject({ Id: 'api', DomainName: { 'Fn::Sub': '${HttpApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}' } });
    expect(events).toMatchObject({
      Id: 'events',
      DomainName: 'events-origin.chat.example.com',
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only' },
      OriginCustomHeaders: [{ HeaderName: 'x-origin-verify', HeaderValue: SECRET }],
    });
    expect(config.Aliases).toEqual(['chat.example.com', '*.chat.example.com']);
    expect(config.ViewerCertificate).toMatchObject({ SslSupportMethod: 'sni-only' });
  });

  it("runs a viewer-request function that copies the viewer's Host into X-Forwarded-Host, over one a client sent", () => {
    const code = resources.EdgeViewerHostFunction.Properties.FunctionCode as string;
    const handler = new Function(`${code}; return handler;`)() as (e: unknown) => { headers: Record<string, { value: string }> };
    const request = handler({
      request: { headers: { host: { value: 'acme.chat.example.com' }, 'x-forwarded-host': { value: 'evil.example' } } },
    });
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'acme.chat.example.com' });
  });

  it('forwards only requests with the secret, by method, to GET /events, DELETE /events and the fallback; 403 for the rest', () => {
    expect(resources.EdgeListener.Properties).toMatchObject({
      Protocol: 'HTTPS',
      Port: 443,
      Certificates: [{ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/origin' }],
      DefaultActions: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '403' } }],
    });
    const rules = Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::ElasticLoadBalancingV2::ListenerRule')
      .map(([, r]) => r.Properties)
      .sort((a, b) => a.Priority - b.Priority);
    const targetOf = (rule: Record<string, any>) =>
      resources[rule.Actions[0].TargetGroupArn.Ref]!.Properties.Targets[0].Id['Fn::GetAtt'][0];
    expect(rules.map((r) => [r.Priority, targetOf(r)])).toEqual([
      [1, 'EventsGetLambdaFunction'],
      [2, 'EventsDeleteLambdaFunction'],
      [3, 'RouteFallbackLambdaFunction'],
    ]);
    for (const rule of rules) {
      expect(rule.Conditions).toEqual(
        expect.arrayContaining([
          { Field: 'path-pattern', PathPatternConfig: { Values: ['/api/v1/events', '/json/events'] } },
          { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'x-origin-verify', Values: [SECRET] } },
        ]),
      );
    }
    const methods = rules.map(
      (r) => r.Conditions.find((c: { Field: string }) => c.Field === 'http-request-method')?.HttpRequestMethodConfig.Values,
    );
    expect(methods).toEqual([['GET', 'HEAD'], ['DELETE'], undefined]);
  });

  it('lets the load balancer invoke each target only once the permission exists, and refers only to what the stack has', () => {
    for (const id of ['EventsGet', 'EventsDelete', 'EventsOther']) {
      expect(resources[`${id}TargetGroup`]!.DependsOn).toEqual([`${id}InvokedByAlb`]);
      expect(resources[`${id}InvokedByAlb`]!.Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'elasticloadbalancing.amazonaws.com',
        SourceAccount: { Ref: 'AWS::AccountId' },
      });
    }
    // What osls generates (the functions, the HTTP API) is not in the printed resources.
    const generated = new Set(['HttpApi', 'EventsGetLambdaFunction', 'EventsDeleteLambdaFunction', 'RouteFallbackLambdaFunction']);
    const edgeIds = Object.keys(resources).filter((id) => id.startsWith('Edge') || id.startsWith('Events'));
    for (const id of edgeIds) {
      for (const target of referenced(resources[id])) {
        if (target.startsWith('AWS::')) continue;
        expect({ id, target, known: target in resources || generated.has(target) }).toEqual({ id, target, known: true });
      }
    }
    expect(Object.keys(printed.resources.Outputs ?? {})).toEqual(
      expect.arrayContaining(['EdgeDistributionDomainName', 'EdgeLoadBalancerDnsName']),
    );
  });
});

describe('eventsEdge api (the default)', () => {
  it('declares none of it, and the /json/ hop passes the host the API was addressed at', async () => {
    const printed = await print([]);
    const resources = printed.resources.Resources;
    expect(Object.keys(resources).filter((id) => id.startsWith('Edge'))).toEqual([]);
    expect(String(printed.provider.environment.EVENTS_LONGPOLL_SECONDS)).toBe('20');
    expect(resources.JsonRouteIntegration!.Properties.RequestParameters['overwrite:header.x-forwarded-host']).toBe('$context.domainName');
  }, 180_000);
});

describe("the edge's settings, refused when missing (edge/index.js)", () => {
  const resolver = (params: Record<string, string>) => ({
    resolveVariable: async (name: string) => {
      const key = name.replace(/, ''$/, '');
      const values: Record<string, string> = { 'self:service': 'chat', 'sls:stage': 'dev', 'param:eventsEdge': 'cloudfront', ...params };
      return values[key] ?? (name.endsWith(", ''") ? '' : undefined);
    },
  });
  const complete = Object.fromEntries(EDGE.map((p) => p.split(/=(.*)/s).slice(0, 2)).map(([k, v]) => [`param:${k}`, v!]));

  it.each([
    [
      'a short origin secret',
      { 'param:edgeOriginSecret': 'short' },
      'eventsEdge cloudfront needs an edgeOriginSecret of at least 32 characters',
    ],
    ['no origin domain', { 'param:edgeOriginDomain': '' }, 'eventsEdge cloudfront needs edgeOriginDomain and edgeOriginCertificateArn'],
    [
      'no origin certificate',
      { 'param:edgeOriginCertificateArn': '' },
      'eventsEdge cloudfront needs edgeOriginDomain and edgeOriginCertificateArn',
    ],
    ['aliases without a certificate', { 'param:edgeCertificateArn': '' }, 'edgeAliases needs edgeCertificateArn'],
  ])('refuses %s', async (_, params, message) => {
    await expect(edge.resources(resolver({ ...complete, ...params }))).rejects.toThrow(message);
  });

  it('serves the distribution at its own address when no aliases are given', async () => {
    const r = await edge.resources(resolver({ ...complete, 'param:edgeAliases': '', 'param:edgeCertificateArn': '' }));
    expect(r.EdgeDistribution!.Properties.DistributionConfig).toMatchObject({ ViewerCertificate: { CloudFrontDefaultCertificate: true } });
    expect(r.EdgeDistribution!.Properties.DistributionConfig.Aliases).toBeUndefined();
  });
});
