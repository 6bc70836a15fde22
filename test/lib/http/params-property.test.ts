// Property-style test of the parameter layer (issue 13): every typed parameter declaration, fed
// generated bad values (wrong JSON types, huge and non-finite numbers, 100 KB strings, deep
// nesting, NUL, invalid UTF-8), answers the API's envelope with a 4xx (or a success where the
// value happens to be valid), and nothing ever throws past the error handler: no 500, no
// "unhandled exception" log line.
//
// Two layers: (1) one test endpoint per kind of declaration the parameter layer offers, with
// randomly generated JSON besides the fixed hostile values; (2) every route of the service, each
// declared parameter in turn, the declarations being read from the handlers themselves (the
// parameter specs they pass to ctx.params, recorded during one real request per route with valid
// values), while the other parameters keep valid values. The route matrix runs those same
// declarations in process, through the endpoint's body parser and RequestParams, as the handler
// would: thousands of real requests against DynamoDB took minutes and proved nothing more about
// the parameter layer than its outcome (a 400 with the upstream message and code, or acceptance).
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ApiError } from '../../../lib/errors';
import { publicApiHandler } from '../../../lib/http/api-handler';
import { bodyParser } from '../../../lib/http/middleware/body-parser';
import { json, rawString, RequestParams, type ParamSpec } from '../../../lib/http/params';
import {
  bool,
  dict,
  float,
  int,
  intInRange,
  list,
  literal,
  nullable,
  object,
  str,
  string,
  union,
} from '../../../lib/validation/validators';
import { settleJobs } from '../../../lib/store/jobs';
import { buildEvent, call, responseChecks, type ApiResult, type CallOptions, type Handler } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

type Route = { method: string; path: string; handler: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { loadRoutes } = require('../../../functions/routes.js') as { loadRoutes: () => Route[] };

const KB100 = 100 * 1024;

/**
 * Hostile values as they travel in a form body: `encoded` is put in the body as it is (so it may
 * carry percent-escapes that are not UTF-8), `text` is URL-encoded first.
 */
type BadValue = { label: string; text?: string; encoded?: string };
const BAD_VALUES: BadValue[] = [
  // Wrong JSON types.
  { label: 'true', text: 'true' },
  { label: 'a JSON string', text: '"text"' },
  { label: 'a list', text: '[1,"2",null]' },
  { label: 'an object', text: '{"a":1}' },
  { label: 'null', text: 'null' },
  { label: 'a fraction', text: '1.5' },
  { label: 'not JSON', text: 'True' },
  { label: 'empty', text: '' },
  // Huge and non-finite numbers.
  { label: '2^53 + 1', text: '9007199254740993' },
  { label: '-(2^53 + 1)', text: '-9007199254740993' },
  { label: '1e400', text: '1e400' },
  { label: '-1e400', text: '-1e400' },
  { label: 'a 400-digit integer', text: `1${'0'.repeat(400)}` },
  { label: 'NaN', text: 'NaN' },
  { label: 'Infinity', text: 'Infinity' },
  // 100 KB strings.
  { label: '100 KB of text', text: 'x'.repeat(KB100) },
  { label: 'a 100 KB JSON string', text: JSON.stringify('x'.repeat(KB100)) },
  { label: 'a 100 KB list', text: JSON.stringify(Array.from({ length: KB100 / 2 }, () => 1)) },
  // Deep nesting.
  { label: 'lists nested 10000 deep', text: `${'['.repeat(10000)}${']'.repeat(10000)}` },
  { label: 'objects nested 5000 deep', text: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` },
  // NUL.
  { label: 'a NUL character', text: 'a\u0000b' },
  { label: 'a JSON string with NUL', text: '"a\\u0000b"' },
  // Invalid UTF-8, as percent-escapes in the body.
  { label: 'an encoded lone surrogate (%ED%A0%80)', encoded: '%ED%A0%80' },
  { label: 'an invalid UTF-8 byte (%FF)', encoded: '%FF%FE' },
  { label: 'a truncated escape', encoded: '%E2%82' },
  { label: 'a lone surrogate in a JSON string', text: '"\\ud800"' },
];

const formBody = (fields: Record<string, string>, override?: { name: string; value: BadValue }): string =>
  [
    ...Object.entries(fields)
      .filter(([k]) => k !== override?.name)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
    ...(override ? [`${encodeURIComponent(override.name)}=${override.value.encoded ?? encodeURIComponent(override.value.text!)}`] : []),
  ].join('&');

/** Console errors written while `fn` ran (the error handler logs every exception it did not expect). */
const unhandledDuring = async <T>(fn: () => Promise<T>): Promise<{ result: T; unhandled: string[] }> => {
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const logSpy = jest.spyOn(console, 'info').mockImplementation(() => undefined);
  try {
    const result = await fn();
    return { result, unhandled: spy.mock.calls.map((args) => args.join(' ')).filter((line) => line.includes('unhandled exception')) };
  } finally {
    spy.mockRestore();
    logSpy.mockRestore();
  }
};

/** The API's envelope with a status below 500: success, or an error with a message and a code. */
const expectEnvelope = (result: ApiResult): void => {
  expect(result.status).toBeLessThan(500);
  if (result.status === 200) expect(result.body).toMatchObject({ result: 'success', msg: '' });
  else {
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.body).toEqual(expect.objectContaining({ result: 'error', msg: expect.any(String), code: expect.any(String) }));
  }
};

// ---------------------------------------------------------------------------------------------
// 1. Every kind of declaration

const DECLARATIONS: Record<string, ParamSpec<unknown>> = {
  'json(bool)': json(bool),
  'json(int)': json(int),
  'json(float)': json(float),
  'json(str)': json(str),
  'json(intInRange(1, 100))': json(intInRange(1, 100)),
  'json(string({ minLength: 1, maxLength: 60 }))': json(string({ minLength: 1, maxLength: 60 })),
  'json(literal("a", 1, true))': json(literal('a', 1, true)),
  'json(list(int))': json(list(int)),
  'json(list(object(...)))': json(list(object({ id: int, name: str }, { optional: ['name'] }))),
  'json(nullable(int))': json(nullable(int)),
  'json(union(int, float))': json(union(int, float)),
  'json(dict)': json(dict),
  'json(object(..., allowExtra))': json(object({ flag: bool }, { optional: ['flag'], allowExtra: true })),
  'json(nullable(int)).optional()': json(nullable(int)).optional(),
  'rawString()': rawString(),
  'rawString(literal("a", "b"))': rawString(literal('a', 'b')),
  'rawString(string({ maxLength: 60 }))': rawString(string({ maxLength: 60 })),
};

const endpointFor = (decl: ParamSpec<unknown>): Handler =>
  publicApiHandler(async ({ params }) => ({ parsed: params({ v: decl }).v === undefined }));

/** A small deterministic generator of JSON values of every shape, so failures can be replayed. */
const generator = (seed: number) => {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(options: T[]): T => options[Math.floor(next() * options.length)];
  const value = (depth: number): unknown => {
    const kind = pick(['int', 'float', 'big', 'string', 'bool', 'null', 'list', 'object']);
    if (depth > 3 && (kind === 'list' || kind === 'object')) return 0;
    switch (kind) {
      case 'int':
        return Math.floor((next() - 0.5) * 2 ** 40);
      case 'float':
        return (next() - 0.5) * 10 ** Math.floor(next() * 300);
      case 'big':
        return pick([Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 2 ** 64, Number.MAX_VALUE]);
      case 'string':
        return pick(['', ' ', 'a', '\u0000', '\ud800', 'é'.repeat(70), '😀'.repeat(61)]);
      case 'bool':
        return next() < 0.5;
      case 'null':
        return null;
      case 'list':
        return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: Math.floor(next() * 3) }, () => [pick(['id', 'name', 'flag', 'x']), value(depth + 1)]),
        );
    }
  };
  return () => JSON.stringify(value(0));
};

describe('every kind of parameter declaration', () => {
  describe.each(Object.entries(DECLARATIONS))('%s', (_name, decl) => {
    const handler = endpointFor(decl);
    const send = (value: BadValue) =>
      call(handler, {
        method: 'POST',
        path: '/test/param',
        rawBody: { body: formBody({}, { name: 'v', value }), contentType: 'application/x-www-form-urlencoded' },
      });

    it.each(BAD_VALUES.map((v): [string, BadValue] => [v.label, v]))(
      'answers %s with 400 or a success, never past the error handler',
      async (_label, value) => {
        const { result, unhandled } = await unhandledDuring(() => send(value));
        expectEnvelope(result);
        expect([200, 400]).toContain(result.status);
        expect(unhandled).toEqual([]);
      },
    );

    it('answers 300 generated JSON values with 400 or a success, and the parser never throws anything but an API error', async () => {
      const next = generator(Object.keys(DECLARATIONS).indexOf(_name) + 1);
      for (let i = 0; i < 300; i += 1) {
        const text = next();
        try {
          new RequestParams({ v: text }).parse({ v: decl });
        } catch (error) {
          expect({ text, name: (error as Error).name, status: (error as { statusCode?: number }).statusCode }).toEqual({
            text,
            name: expect.stringMatching(/Error$/),
            status: 400,
          });
        }
      }
      const { result, unhandled } = await unhandledDuring(() => send({ label: 'generated', text: next() }));
      expectEnvelope(result);
      expect(unhandled).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Every declared parameter of every route

/** Valid values for the parameters a route requires, so that each parameter in turn is reached. */
const validParams = async (): Promise<Record<string, Record<string, string>>> => {
  const queue = await openQueue('iago@zulip.com');
  return {
    'POST /dev_fetch_api_key': { username: 'iago@zulip.com' },
    'POST /drafts': { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: 'x' }]) },
    'PATCH /drafts/{draft_id}': { draft: JSON.stringify({ type: '', to: [], topic: '', content: 'x' }) },
    'GET /events': { queue_id: queue.queueId, last_event_id: '-1', dont_block: 'true' },
    'PATCH /realm/linkifiers': { ordered_linkifier_ids: '[1,2,3]' },
    'POST /realm/filters': { pattern: 'fuzz-(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' },
    'PATCH /realm/filters/{filter_id}': { pattern: 'fuzz2-(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' },
    'POST /users/me/presence': { status: 'active' },
    'PATCH /users/me/profile_data': { data: JSON.stringify([{ id: 1, value: 'x' }]) },
    'DELETE /users/me/profile_data': { data: '[1]' },
    'POST /reminders': { message_id: '1', scheduled_delivery_timestamp: '4102444800' },
    'POST /scheduled_messages': { type: 'direct', to: '[12]', content: 'x', scheduled_delivery_timestamp: '4102444800' },
    'PATCH /scheduled_messages/{scheduled_message_id}': { content: 'x' },
    'POST /users/me/alert_words': { alert_words: '["fuzz"]' },
    'DELETE /users/me/alert_words': { alert_words: '["fuzz"]' },
    'POST /user_groups/create': { name: 'fuzz', description: '', members: '[]' },
    'PATCH /user_groups/{user_group_id}': { description: 'fuzz' },
    'POST /user_topics': { stream_id: '3', topic: 'fuzz', visibility_policy: '1' },
    'PATCH /users/me/subscriptions/muted_topics': { stream_id: '3', topic: 'fuzz', op: 'add' },
  };
};

const PATH_IDS: Record<string, string> = {
  draft_id: '1',
  filter_id: '1',
  invite_id: '1',
  reminder_id: '1',
  scheduled_message_id: '3',
  user_group_id: '9',
  user_id_or_email: '10',
};

/**
 * A route's one real request, its parameter declarations recorded on the way: every spec the
 * handler passes to ctx.params, in order (the parser itself runs as always). Its status, and its
 * body when it is JSON (a web page's is HTML, an avatar's a redirect).
 */
const callRecordingDeclarations = async (
  handler: Handler,
  request: CallOptions,
): Promise<{ status: number; json: Record<string, any> | undefined; unhandled: string[]; specs: Record<string, ParamSpec<unknown>>[] }> => {
  const spy = jest.spyOn(RequestParams.prototype, 'parse');
  try {
    const event = await buildEvent(request);
    const { result: response, unhandled } = await unhandledDuring(async () => {
      const answer = await handler(event);
      await settleJobs();
      return answer;
    });
    const type = Object.entries(response.headers ?? {}).find(([h]) => h.toLowerCase() === 'content-type')?.[1] ?? '';
    const text = response.isBase64Encoded ? gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8') : response.body;
    const json = String(type).includes('json') ? (JSON.parse(text) as Record<string, any>) : undefined;
    // The checks every handler test's responses get (the OpenAPI description's), as call() runs them.
    if (json) for (const check of responseChecks) check(request, { status: response.statusCode, headers: response.headers, body: json });
    return { status: response.statusCode, json, unhandled, specs: spy.mock.calls.map(([spec]) => spec) };
  } finally {
    spy.mockRestore();
  }
};

/** The request's parameters as the handler sees them: the body through the endpoint's own body parser. */
const parsedBody = async (body: string): Promise<Record<string, string>> => {
  const event = { body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, isBase64Encoded: false };
  await bodyParser().before!({ event } as never);
  return event.body as unknown as Record<string, string>;
};

/**
 * What the endpoint answers a body, as far as its parameters decide it: the body parser, then the
 * route's declarations in the order the handler made them, on one RequestParams as the handler
 * does. An API error becomes its response (the error handler's status and body); acceptance is
 * undefined; anything else is rethrown, as it would have been a 500.
 */
const parameterOutcome = async (body: string, specs: Record<string, ParamSpec<unknown>>[]): Promise<ApiResult | undefined> => {
  try {
    const params = new RequestParams(await parsedBody(body));
    for (const spec of specs) params.parse(spec);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, headers: error.headers, body: error.toBody() };
  }
};

/** Routes that end the caller's own access (its account, its API key): run last, so that they do not refuse the others. */
const ENDS_OWN_ACCESS = new Set(['DELETE /users/me', 'POST /users/me/api_key/regenerate']);

describe('every declared parameter of every route', () => {
  const routes = loadRoutes().sort(
    (a, b) => Number(ENDS_OWN_ACCESS.has(`${a.method} ${a.path}`)) - Number(ENDS_OWN_ACCESS.has(`${b.method} ${b.path}`)),
  );
  let valid: Record<string, Record<string, string>>;
  beforeAll(async () => {
    valid = await validParams();
  });

  it.each(routes.map((r): [string, Route] => [`${r.method} ${r.path}`, r]))(
    '%s answers every hostile value of every parameter with the envelope and no 5xx',
    async (key: string, route: Route) => {
      const [modulePath, exportName] = route.handler.split(/\.(?=[^.]+$)/);
      const handler = (await import(join(__dirname, '..', '..', '..', modulePath)))[exportName] as Handler;
      const pathParameters = Object.fromEntries([...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => [m[1], PATH_IDS[m[1]] ?? '1']));
      const path = route.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => pathParameters[name]);
      const base = { method: route.method, path, routeKey: key, pathParameters, as: 'iago@zulip.com' };
      const fields = valid[key] ?? {};
      // The route's one real request, with valid values: an envelope, and its declarations read.
      const { status, json, unhandled, specs } = await callRecordingDeclarations(handler, {
        ...base,
        rawBody: { body: formBody(fields), contentType: 'application/x-www-form-urlencoded' },
      });
      expect({ status: status < 500, unhandled }).toEqual({ status: true, unhandled: [] });
      // An API route (one that declares parameters) answers the envelope.
      if (specs.length > 0) expectEnvelope({ status, headers: {}, body: json ?? {} });
      const names = [...new Set(specs.flatMap((spec) => Object.keys(spec)))];
      // Every parameter the valid request carries is among the declarations the handler made.
      expect(names).toEqual(expect.arrayContaining(Object.keys(fields)));
      // Every hostile value of every declared parameter, through the same body parser and
      // declarations, in process: an upstream-worded 4xx, or acceptance; never anything else.
      for (const name of names) {
        for (const value of BAD_VALUES) {
          let outcome: ApiResult | undefined;
          try {
            outcome = await parameterOutcome(formBody(fields, { name, value }), specs);
            if (outcome) expectEnvelope(outcome);
          } catch (error) {
            throw new Error(`${key} ${name}=${value.label}: ${outcome ? JSON.stringify(outcome.body).slice(0, 300) : String(error)}`, {
              cause: error,
            });
          }
        }
      }
    },
  );
});
