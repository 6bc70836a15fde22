// functions/routes.js: the route table serverless.yml and the fallback are built from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Route = { name: string; method: string; path: string; handler: string; longPoll?: true; memorySize?: number };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const routesModule = require('../../functions/routes.js') as {
  loadRoutes: (dir?: string) => Route[];
  routeTable: (routes?: Route[]) => Record<string, string[]>;
  timeoutOf: (route: Route, longPollSeconds: number) => number;
  functions: (ctx: { resolveVariable: (name: string) => Promise<string> }) => Promise<Record<string, Record<string, unknown>>>;
  stageThrottling: (ctx: { resolveVariable: (name: string) => Promise<string> }) => Promise<Record<string, any>>;
};

const stageParams = (params: Record<string, string>) => ({
  resolveVariable: async (name: string) =>
    ({
      'param:eventsLongPollSeconds': '20',
      'param:eventsMaxConcurrency': '500',
      'param:eventsRealmShards': '5',
      'param:eventsCapacity': 'standard',
      'param:eventsEdge': 'api',
      ...params,
    })[name]!,
});

describe('functions/routes.js', () => {
  it('points every route at a module that exports its handler function', () => {
    for (const route of routesModule.loadRoutes()) {
      const [file, name] = route.handler.split('.');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect({ route: route.name, type: typeof require(`../../${file}`)[name] }).toEqual({ route: route.name, type: 'function' });
    }
  });

  it('includes POST /dev_fetch_api_key', () => {
    expect(routesModule.loadRoutes()).toContainEqual({
      name: 'devFetchApiKey',
      method: 'POST',
      path: '/dev_fetch_api_key',
      handler: 'functions/dev/fetch-api-key.handler',
    });
  });

  it('groups methods by path in the route table', () => {
    const routes: Route[] = [
      { name: 'a', method: 'GET', path: '/x', handler: 'h' },
      { name: 'b', method: 'DELETE', path: '/x', handler: 'h' },
      { name: 'c', method: 'POST', path: '/y/{id}', handler: 'h' },
    ];
    expect(routesModule.routeTable(routes)).toEqual({ '/x': ['GET', 'DELETE'], '/y/{id}': ['POST'] });
  });

  it('declares GET /events, and only it, as a long-poll route', () => {
    expect(
      routesModule
        .loadRoutes()
        .filter((r) => r.longPoll)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /events']);
  });

  it('gives a long-poll route five seconds more than the long-poll bound, and other routes 10 s', () => {
    expect(routesModule.timeoutOf({ name: 'e', method: 'GET', path: '/events', handler: 'h', longPoll: true }, 20)).toBe(25);
    expect(routesModule.timeoutOf({ name: 'e', method: 'DELETE', path: '/events', handler: 'h' }, 20)).toBe(10);
  });

  it('caps GET /events at eventsMaxConcurrency executions, and only it', async () => {
    const fns = await routesModule.functions(stageParams({ 'param:eventsMaxConcurrency': '300' }));
    expect(fns.eventsGet).toMatchObject({ reservedConcurrency: 300, timeout: 25 });
    expect(
      Object.entries(fns)
        .filter(([, f]) => 'reservedConcurrency' in f)
        .map(([name]) => name),
    ).toEqual(['eventsGet']);
  });

  it('refuses an eventsMaxConcurrency that is not a whole number of executions', async () => {
    await expect(routesModule.functions(stageParams({ 'param:eventsMaxConcurrency': '0' }))).rejects.toThrow(
      'eventsMaxConcurrency must be a whole number of executions, got 0',
    );
  });

  it('refuses fewer event stream shards than the waiting clients need (100 per shard)', async () => {
    await expect(routesModule.functions(stageParams({ 'param:eventsMaxConcurrency': '501' }))).rejects.toThrow(
      'eventsRealmShards must be at least 6 for 501 waiting clients (100 per shard: docs/data-model.md, "Capacity"), got 5',
    );
    await expect(
      routesModule.functions(stageParams({ 'param:eventsMaxConcurrency': '2000', 'param:eventsRealmShards': '20' })),
    ).resolves.toHaveProperty('eventsGet');
  });

  describe('GET /events on managed instances (eventsCapacity managed: capacity/index.js)', () => {
    const managed = (params: Record<string, string> = {}) =>
      routesModule.functions(stageParams({ 'param:eventsCapacity': 'managed', ...params }));

    it('reserves no concurrency, gives GET /events the environment its capacity provider runs, and keeps its timeout under 30 s', async () => {
      const fns = await managed();
      expect(fns.eventsGet).not.toHaveProperty('reservedConcurrency');
      expect(fns.eventsGet).toMatchObject({
        timeout: 25,
        memorySize: 2048,
        // osls would publish a numbered version at each deploy, each with environments of its own.
        versionFunction: false,
        // One Node.js worker per environment: all its polls share one watcher.
        environment: { AWS_LAMBDA_NODEJS_WORKER_COUNT: '1' },
      });
      expect(Object.entries(fns).filter(([, f]) => 'reservedConcurrency' in f)).toEqual([]);
      // Every other function is as on standard Lambda.
      const standard = await routesModule.functions(stageParams({}));
      const { eventsGet: _m, ...otherManaged } = fns;
      const { eventsGet: _s, ...otherStandard } = standard;
      expect(otherManaged).toEqual(otherStandard);
    });

    it('refuses more waiting clients than 100 environments of 1,600 hold (one shard head reader each)', async () => {
      await expect(managed({ 'param:eventsMaxConcurrency': '160001', 'param:eventsRealmShards': '1601' })).rejects.toThrow(
        'eventsMaxConcurrency 160001 needs 101 execution environments of 1600 waiting polls on managed instances',
      );
      await expect(managed({ 'param:eventsMaxConcurrency': '160000', 'param:eventsRealmShards': '1600' })).resolves.toHaveProperty(
        'eventsGet',
      );
    });

    it("keeps the shard rule: every woken poll still reads its shard's new items itself", async () => {
      await expect(managed({ 'param:eventsMaxConcurrency': '501' })).rejects.toThrow(
        'eventsRealmShards must be at least 6 for 501 waiting clients',
      );
    });
  });

  it.each([['lambda'], ['Managed'], ['']])('refuses an eventsCapacity of "%s", naming the two modes', async (value) => {
    await expect(routesModule.functions(stageParams({ 'param:eventsCapacity': value }))).rejects.toThrow(
      `The eventsCapacity parameter must be standard (standard Lambda, the default) or managed (Lambda Managed Instances), got "${value}"`,
    );
  });

  it('behind the cloudfront edge, lets GET /events wait 50 s (its timeout 55 s, under CloudFront 60 s) whatever eventsLongPollSeconds says', async () => {
    const fns = await routesModule.functions(stageParams({ 'param:eventsEdge': 'cloudfront', 'param:eventsLongPollSeconds': '20' }));
    expect(fns.eventsGet).toMatchObject({ reservedConcurrency: 500, timeout: 55 });
    expect(fns.eventsDelete).toMatchObject({ timeout: 10 });
    // Behind the HTTP API a bound past its 30 s stays refused.
    await expect(routesModule.functions(stageParams({ 'param:eventsLongPollSeconds': '50' }))).rejects.toThrow(
      'eventsLongPollSeconds must be a number of seconds below 25, got 50',
    );
  });

  it('refuses an eventsEdge other than api or cloudfront', async () => {
    await expect(routesModule.functions(stageParams({ 'param:eventsEdge': 'alb' }))).rejects.toThrow(
      'The eventsEdge parameter must be api (every route behind the HTTP API, the default) or cloudfront (CloudFront in front, GET /events behind a load balancer), got "alb"',
    );
  });

  it('gives each function the memorySize its routes.json entry declares', async () => {
    const fns = await routesModule.functions(stageParams({}));
    for (const route of routesModule.loadRoutes()) {
      expect({ name: route.name, memorySize: fns[route.name].memorySize }).toEqual({ name: route.name, memorySize: route.memorySize });
    }
  });

  it('serves every path outside /api/v1/ that no route serves from the page fallback, and /api/v1/… from the API fallback', async () => {
    const fns = await routesModule.functions(stageParams({}));
    expect(fns.pageFallback).toMatchObject({
      handler: 'functions/fallback/not-found.handler',
      events: [{ httpApi: { method: '*', path: '/{proxy+}' } }],
    });
    expect(fns.routeFallback).toMatchObject({ events: [{ httpApi: { method: '*', path: '/api/v1/{proxy+}' } }] });
  });

  describe('refuses a routes.json that', () => {
    let root: string;
    const write = (routes: unknown[]): string => {
      const functionsDir = join(root, 'functions');
      mkdirSync(join(functionsDir, 'things'), { recursive: true });
      writeFileSync(join(functionsDir, 'things', 'routes.json'), JSON.stringify(routes));
      writeFileSync(join(functionsDir, 'things', 'list.ts'), 'export const handler = () => undefined;\n');
      return functionsDir;
    };
    const ok = { name: 'listThings', method: 'GET', path: '/things', handler: 'functions/things/list.handler' };

    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'routes-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('is valid: reads it', () => {
      expect(routesModule.loadRoutes(write([ok]))).toEqual([ok]);
    });

    it.each([
      ['repeats a method and path', [ok, { ...ok, name: 'other' }], /duplicate route GET \/things/],
      ['repeats a name', [ok, { ...ok, method: 'POST' }], /duplicate name listThings/],
      ['names a missing handler file', [{ ...ok, handler: 'functions/things/nope.handler' }], /handler functions\/things\/nope.handler/],
      ['includes the /api/v1 prefix', [{ ...ok, path: '/api/v1/things' }], /without \/api\/v1/],
      ['uses an unknown method', [{ ...ok, method: 'FETCH' }], /method must be one of/],
      ['has a field the route table does not read (a retry count)', [{ ...ok, retries: 2 }], /unknown field\(s\) retries/],
      ['uses the fallback name', [{ ...ok, name: 'routeFallback' }], /name must be camelCase/],
      ['uses the page fallback name', [{ ...ok, name: 'pageFallback' }], /name must be camelCase/],
      ["sizes a function below Lambda's 128 MB", [{ ...ok, memorySize: 64 }], /memorySize must be/],
      ['says longPoll other than true', [{ ...ok, longPoll: 'yes' }], /longPoll must be true/],
      ['throttles without a burst', [{ ...ok, throttle: { rate: 10 } }], /throttle must be/],
      ['throttles with a fractional burst', [{ ...ok, throttle: { rate: 10, burst: 2.5 } }], /throttle must be/],
      ['throttles to nothing', [{ ...ok, throttle: { rate: 0, burst: 1 } }], /throttle must be/],
    ])('%s', (_case, routes, error) => {
      expect(() => routesModule.loadRoutes(write(routes))).toThrow(error);
    });
  });

  describe('stageThrottling', () => {
    const throttled = stageParams({ 'param:throttleRate': '500', 'param:throttleBurst': '1000' });

    it("sets the stage's default route limit from the throttleRate and throttleBurst parameters", async () => {
      const { HttpApiStage } = await routesModule.stageThrottling(throttled);
      expect(HttpApiStage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    });

    it('gives the password logins, sign-ups and password resets (POST /fetch_api_key, /login/, /register/, /join/<key>/, /new/<key>/, /accounts/password/reset/…) their own lower limit, after their routes exist', async () => {
      const { HttpApiStage } = await routesModule.stageThrottling(throttled);
      expect(HttpApiStage.Properties.RouteSettings).toEqual({
        'POST /accounts/password/reset/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /accounts/password/reset/{reset_key}/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /api/v1/fetch_api_key': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /join/{confirmation_key}/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /login/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /new/{creation_key}/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /register/': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      });
      expect(HttpApiStage.DependsOn).toEqual([
        'HttpApiRoutePostAccountsPasswordReset',
        'HttpApiRoutePostAccountsPasswordResetResetkeyVar',
        'HttpApiRoutePostApiV1Fetchapikey',
        'HttpApiRoutePostJoinConfirmationkeyVar',
        'HttpApiRoutePostLogin',
        'HttpApiRoutePostNewCreationkeyVar',
        'HttpApiRoutePostRegister',
      ]);
    });

    it('refuses a default limit that is not positive', async () => {
      await expect(routesModule.stageThrottling(stageParams({ 'param:throttleRate': '0', 'param:throttleBurst': '1000' }))).rejects.toThrow(
        /throttleRate and throttleBurst must be positive/,
      );
    });
  });
});
