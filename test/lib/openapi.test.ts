import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { call, type Handler } from '../helpers/api';
import {
  DESCRIPTION_FEATURE_LEVEL,
  OpenApiMismatchError,
  REQUIRED_REGISTER_KEYS,
  expectRegisterKeys,
  findTemplate,
  registerKeyTypes,
  validateEvent,
  validateResponse,
} from '../helpers/openapi';
import { DESCRIPTION_PATH, loadDescription, mergedSchema, responseSchema, toJsonSchema } from '../helpers/openapi-schema';

const success = (data: Record<string, unknown> = {}) => ({ result: 'success', msg: '', ...data });
const draft = { id: 1, type: 'stream', to: [3], topic: 'sync drafts', content: 'Hello', timestamp: 1595479019 };

/** A concrete request path for a template: ids are numbers, emails emails, anything else a word. */
const concrete = (template: string): string =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => (name.endsWith('id') ? '17' : name.endsWith('email') ? 'aaron@zulip.com' : 'word'));

const messageOf = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(OpenApiMismatchError);
    return (error as Error).message;
  }
  throw new Error('expected a mismatch, but the value passed');
};

describe('the OpenAPI description as test data', () => {
  it('is the unmodified upstream file, with its licence notice beside it', () => {
    // sha256 of zerver/openapi/zulip.yaml at the commit the NOTICE names.
    expect(createHash('sha256').update(readFileSync(DESCRIPTION_PATH)).digest('hex')).toBe(
      'c2215645d66e3825db93e0ae9b76e35f2da9fa7e4cd2e5a08c0b61a8a30058fe',
    );
    expect(readFileSync(DESCRIPTION_PATH.replace(/\.yaml$/, '.NOTICE'), 'utf8')).toContain('Apache License, Version 2.0');
  });

  it('documents feature levels up to DESCRIPTION_FEATURE_LEVEL', () => {
    const levels = [...readFileSync(DESCRIPTION_PATH, 'utf8').matchAll(/feature level (\d+)/gi)].map((m) => Number(m[1]));
    expect(Math.max(...levels)).toBe(DESCRIPTION_FEATURE_LEVEL);
  });
});

describe('schema preparation', () => {
  it('merges allOf branches, the later overriding and extending the earlier', () => {
    const merged = mergedSchema({
      allOf: [
        { type: 'object', required: ['a'], properties: { a: { type: 'integer' }, b: { type: 'string' } } },
        { additionalProperties: false, required: ['b'], properties: { b: { nullable: true }, c: { type: 'boolean' } } },
      ],
    });
    expect(merged).toEqual({
      type: 'object',
      required: ['a', 'b'],
      additionalProperties: false,
      properties: { a: { type: 'integer' }, b: { type: 'string', nullable: true }, c: { type: 'boolean' } },
    });
  });

  it('turns nullable into a null type, and adds null to an enum', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, example: 'x' })).toEqual({ type: ['string', 'null'] });
    expect(toJsonSchema({ type: 'string', enum: ['a'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(toJsonSchema({ oneOf: [{ type: 'integer' }, { type: 'string' }], nullable: true })).toEqual({
      anyOf: [{ oneOf: [{ type: 'integer' }, { type: 'string' }] }, { type: 'null' }],
    });
  });

  it('drops annotations but keeps properties that carry their names', () => {
    const schema = { type: 'object', description: 'd', 'x-note': 1, properties: { example: { type: 'string', example: 'e' } } };
    expect(toJsonSchema(schema)).toEqual({ type: 'object', properties: { example: { type: 'string' } } });
  });
});

describe('path templates', () => {
  it('maps a concrete path of every documented template back to that template', () => {
    const wrong = Object.keys(loadDescription().paths).filter((template) => findTemplate(concrete(template)) !== template);
    expect(wrong).toEqual([]);
  });

  it('ignores the /api/v1 prefix, the origin and the query string', () => {
    expect(findTemplate('/drafts/5')).toBe('/drafts/{draft_id}');
    expect(findTemplate('/api/v1/drafts/5?x=1')).toBe('/drafts/{draft_id}');
    expect(findTemplate('http://localhost:3000/api/v1/events?queue_id=abc')).toBe('/events');
  });

  it('prefers a literal segment to a parameter', () => {
    expect(findTemplate('/users/me')).toBe('/users/me');
    expect(findTemplate('/users/hamlet@zulip.com')).toBe('/users/{email}');
    expect(findTemplate('/users/10')).toBe('/users/{user_id}');
  });

  it('finds nothing for a path the description does not document', () => {
    expect(findTemplate('/no_such_thing/5')).toBeUndefined();
    expect(findTemplate('/drafts/abc')).toBeUndefined();
  });
});

describe('success responses', () => {
  it('accepts every 200 example of every documented endpoint', () => {
    const failures: string[] = [];
    for (const [template, operations] of Object.entries(loadDescription().paths)) {
      for (const method of Object.keys(operations)) {
        const schema = responseSchema(template, method, '200');
        if (!schema) continue;
        const response = (operations[method].responses?.['200'] ?? {}) as {
          content?: Record<string, { examples?: Record<string, { value: unknown }> }>;
        };
        const examples = [schema.example, ...Object.values(response.content?.['application/json']?.examples ?? {}).map((e) => e.value)];
        for (const example of examples.filter((e) => e !== undefined)) {
          try {
            validateResponse(method, concrete(template), 200, example);
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('accepts a valid drafts response', () => {
    expect(() => validateResponse('GET', '/drafts', 200, success({ count: 1, drafts: [draft] }))).not.toThrow();
  });

  it('names the path and the field of a wrong type', () => {
    const message = messageOf(() => validateResponse('GET', '/drafts', 200, success({ count: 1, drafts: [{ ...draft, id: '1' }] })));
    expect(message).toContain('Response to GET /drafts (200) does not match the OpenAPI description');
    expect(message).toContain('/drafts/0/id: must be integer, got string "1"');
  });

  it('names the path and the field of an unknown key', () => {
    const message = messageOf(() => validateResponse('GET', '/drafts', 200, success({ count: 1, drafts: [{ ...draft, colour: 'red' }] })));
    expect(message).toContain('/drafts/0: unknown field "colour" (not in the description)');
  });

  it('rejects an unknown top-level key', () => {
    expect(messageOf(() => validateResponse('POST', '/drafts', 200, success({ ids: [1], id: 1 })))).toContain('/: unknown field "id"');
  });

  it('accepts null where the description says nullable', () => {
    const schema = responseSchema('/streams/{stream_id}', 'get', '200')!;
    const stream = { ...schema.example.stream, creator_id: null, message_retention_days: null, first_message_id: null };
    expect(() => validateResponse('GET', '/streams/1', 200, success({ stream }))).not.toThrow();
  });

  it('rejects null where the description does not say nullable', () => {
    expect(messageOf(() => validateResponse('GET', '/drafts', 200, success({ count: 1, drafts: [{ ...draft, topic: null }] })))).toContain(
      '/drafts/0/topic: must be string, got null null',
    );
  });

  it('reports the deepest plausible branch of a group-setting value', () => {
    const schema = responseSchema('/user_groups', 'get', '200')!;
    const group = { ...schema.example.user_groups[0], can_manage_group: { direct_members: ['10'], direct_subgroups: [] } };
    expect(messageOf(() => validateResponse('GET', '/user_groups', 200, success({ user_groups: [group] })))).toContain(
      '/user_groups/0/can_manage_group/direct_members/0: must be integer, got string "10"',
    );
  });

  it('tells apart the failures of several items of one array', () => {
    const schema = responseSchema('/user_groups', 'get', '200')!;
    const [group] = schema.example.user_groups;
    const groups = [
      { ...group, can_manage_group: { direct_members: ['10'], direct_subgroups: [] } },
      { ...group, can_manage_group: 'admins' },
    ];
    const message = messageOf(() => validateResponse('GET', '/user_groups', 200, success({ user_groups: groups })));
    expect(
      message
        .split('\n')
        .slice(1)
        .map((line) => line.trim()),
    ).toEqual([
      '/user_groups/0/can_manage_group/direct_members/0: must be integer, got string "10"',
      '/user_groups/1/can_manage_group: must be integer, got string "admins"',
      '/user_groups/1/can_manage_group: must be object, got string "admins"',
    ]);
  });

  it('skips the success body of an endpoint the description does not document', () => {
    expect(() => validateResponse('GET', '/test_only/echo', 200, { anything: 'goes' })).not.toThrow();
    expect(() => validateResponse('GET', undefined, 200, { anything: 'goes' })).not.toThrow();
  });
});

describe('POST /register allow-list', () => {
  const register = (data: Record<string, unknown>) => success({ queue_id: 'abc', last_event_id: -1, zulip_feature_level: 485, ...data });

  it('accepts the service_* version fields with the types of their zulip_* counterparts', () => {
    const body = register({ service_feature_level: 485, service_version: '11.0', service_merge_base: '' });
    expect(() => validateResponse('POST', '/register', 200, body)).not.toThrow();
  });

  it('checks the type of the service_* version fields', () => {
    const message = messageOf(() => validateResponse('POST', '/register', 200, register({ service_feature_level: '485' })));
    expect(message).toContain('/service_feature_level: must be integer, got string "485"');
  });

  it('rejects a key the description does not know at a feature level it knows', () => {
    expect(messageOf(() => validateResponse('POST', '/register', 200, register({ realm_mood: 'calm' })))).toContain(
      '/: unknown field "realm_mood"',
    );
  });

  it('accepts an unknown top-level key only when the response declares a newer feature level', () => {
    const body = register({ zulip_feature_level: DESCRIPTION_FEATURE_LEVEL + 1, realm_mood: 'calm' });
    expect(() => validateResponse('POST', '/register', 200, body)).not.toThrow();
  });

  it('still checks known keys and nested objects at a newer feature level', () => {
    const body = register({ zulip_feature_level: DESCRIPTION_FEATURE_LEVEL + 1, alert_words: [1], user_settings: { mood: 'calm' } });
    const message = messageOf(() => validateResponse('POST', '/register', 200, body));
    expect(message).toContain('/alert_words/0: must be string, got number 1');
    expect(message).toContain('/user_settings: unknown field "mood"');
  });

  it('does not apply to other endpoints', () => {
    const body = success({ count: 0, drafts: [], service_feature_level: 485 });
    expect(messageOf(() => validateResponse('GET', '/drafts', 200, body))).toContain('/: unknown field "service_feature_level"');
  });
});

describe('error responses', () => {
  const error = (data: Record<string, unknown>) => ({ result: 'error', msg: 'Invalid user group', code: 'BAD_REQUEST', ...data });

  it('accepts every error example of the description', () => {
    const failures: string[] = [];
    for (const [template, operations] of Object.entries(loadDescription().paths)) {
      for (const method of Object.keys(operations)) {
        for (const status of Object.keys(operations[method].responses ?? {}).filter((s) => Number(s) >= 400)) {
          const schema = responseSchema(template, method, status)!;
          for (const example of [schema.example, ...(schema.oneOf ?? []).map((b: { example?: unknown }) => b.example)].filter(Boolean)) {
            try {
              validateResponse(method, concrete(template), Number(status), example);
            } catch (e) {
              failures.push((e as Error).message);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('accepts the generic shape with extra fields, on any endpoint', () => {
    expect(() => validateResponse('POST', '/test_only/echo', 400, error({}))).not.toThrow();
    const inUse = error({
      msg: 'Cannot deactivate user group in use.',
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      objections: [{ type: 'realm', settings: ['x'] }],
    });
    expect(() => validateResponse('POST', '/user_groups/5/deactivate', 400, inUse)).not.toThrow();
  });

  it('names the missing code of an error body, even on an undocumented endpoint', () => {
    const message = messageOf(() => validateResponse('POST', '/test_only/echo', 400, { result: 'error', msg: 'Invalid user group' }));
    expect(message).toContain('Response to POST /test_only/echo (400) does not match the OpenAPI description');
    expect(message).toContain('/: missing required field "code"');
  });

  it('names a wrongly typed msg and result', () => {
    const message = messageOf(() => validateResponse('DELETE', '/reminders/3', 400, error({ result: 'failure', msg: 3 })));
    expect(message).toContain('/result: must be one of ["error"], got string "failure"');
    expect(message).toContain('/msg: must be string, got number 3');
  });

  it('checks a BAD_EVENT_QUEUE_ID body against its own schema', () => {
    const body = { result: 'error', msg: 'Bad event queue ID: abc', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'abc' };
    expect(() => validateResponse('GET', '/events', 400, body)).not.toThrow();
    expect(messageOf(() => validateResponse('GET', '/events', 400, { ...body, queue_id: 5 }))).toContain(
      '/queue_id: must be string, got number 5',
    );
    expect(messageOf(() => validateResponse('DELETE', '/events', 400, { ...body, last_event_id: 3 }))).toContain(
      '/: unknown field "last_event_id"',
    );
    const { queue_id: _omitted, ...withoutQueueId } = body;
    expect(messageOf(() => validateResponse('GET', '/events', 400, withoutQueueId))).toContain('/: missing required field "queue_id"');
  });

  it('checks a REQUEST_VARIABLE_MISSING body against its own schema', () => {
    const body = { result: 'error', msg: "Missing 'username' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'username' };
    expect(() => validateResponse('POST', '/dev_fetch_api_key', 400, body)).not.toThrow();
    const { var_name: _omitted, ...withoutVarName } = body;
    expect(messageOf(() => validateResponse('POST', '/dev_fetch_api_key', 400, withoutVarName))).toContain(
      '/: missing required field "var_name"',
    );
  });

  it("checks a 405 body against upstream's shape, which has no code", () => {
    const body = { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] };
    expect(() => validateResponse('GET', '/dev_fetch_api_key', 405, body)).not.toThrow();
    expect(messageOf(() => validateResponse('GET', '/dev_fetch_api_key', 405, { ...body, code: 'BAD_REQUEST' }))).toContain(
      '/: unknown field "code"',
    );
  });
});

describe('events', () => {
  const eventSchemas = (): { example?: Record<string, unknown> }[] =>
    responseSchema('/events', 'get', '200')!.properties.events.items.oneOf;

  it('accepts the example of every event schema, with or without its id', () => {
    const failures: string[] = [];
    for (const { example } of eventSchemas()) {
      expect(example).toBeDefined();
      const { id: _id, ...withoutId } = example!;
      for (const event of [example, withoutId]) {
        try {
          validateEvent(event);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  const draftsAdd = { type: 'drafts', op: 'add', drafts: [draft] };

  it('names the path and the field of a wrong type in an event', () => {
    const message = messageOf(() => validateEvent({ ...draftsAdd, drafts: [{ ...draft, timestamp: 'now' }] }));
    expect(message).toContain('Event "drafts"/"add" does not match the OpenAPI description');
    expect(message).toContain('/drafts/0/timestamp: must be integer, got string "now"');
  });

  it('requires the id where the description does, in a GET /events response', () => {
    const { example } = eventSchemas().find((s) => s.example?.type === 'update_message')!;
    const { id: _id, ...withoutId } = example!;
    expect(messageOf(() => validateResponse('GET', '/events', 200, success({ queue_id: 'abc', events: [withoutId] })))).toContain(
      '/events/0: missing required field "id"',
    );
  });

  it('names an unknown field in an event', () => {
    expect(messageOf(() => validateEvent({ ...draftsAdd, queue_id: 'abc' }))).toContain('/: unknown field "queue_id"');
  });

  it('names an event type or op the description does not know', () => {
    expect(messageOf(() => validateEvent({ type: 'drafts_v2', op: 'add' }))).toContain(
      '/type: the description has no event of type "drafts_v2"',
    );
    expect(messageOf(() => validateEvent({ type: 'drafts', op: 'frob' }))).toContain(
      '/op: the description has no "drafts" event with op "frob" (known: add, update, remove)',
    );
  });

  it('checks each event of a GET /events response, named by its index', () => {
    const body = success({
      queue_id: 'abc',
      events: [
        { id: 0, type: 'heartbeat' },
        { id: 1, ...draftsAdd, drafts: [{ ...draft, to: 'x' }] },
      ],
    });
    const message = messageOf(() => validateResponse('GET', '/events', 200, body));
    expect(message).toContain('/events/1/drafts/0/to: must be array, got string "x"');
    expect(message).not.toContain('/events/0');
  });

  it('accepts a valid GET /events response', () => {
    const body = success({
      queue_id: 'abc',
      events: [
        { id: 0, type: 'heartbeat' },
        { id: 1, ...draftsAdd },
      ],
    });
    expect(() => validateResponse('GET', '/api/v1/events?queue_id=abc&last_event_id=-1', 200, body)).not.toThrow();
  });
});

describe('expectRegisterKeys', () => {
  const sample: Record<string, unknown> = { integer: 1, number: 1.5, string: 'x', boolean: false, array: [], object: {} };
  const complete = (): Record<string, unknown> =>
    Object.fromEntries(REQUIRED_REGISTER_KEYS.map((key) => [key, sample[registerKeyTypes(key).find((t) => t !== 'null')!]]));

  it('accepts a snapshot with every required key of the right type', () => {
    expect(() => expectRegisterKeys(complete())).not.toThrow();
  });

  it('lists every missing and every mistyped key', () => {
    const { unread_msgs: _u, realm_users: _r, ...body } = complete();
    const message = messageOf(() => expectRegisterKeys({ ...body, realm_name: 3, last_event_id: '-1' }));
    expect(message).toContain('/unread_msgs: missing');
    expect(message).toContain('/realm_users: missing');
    expect(message).toContain('/realm_name: must be string, got number 3');
    expect(message).toContain('/last_event_id: must be integer, got string "-1"');
  });

  it('takes each type from the description', () => {
    expect(registerKeyTypes('realm_users')).toEqual(['array']);
    expect(registerKeyTypes('zulip_merge_base')).toEqual(['string']);
    expect(registerKeyTypes('realm_allow_message_editing')).toEqual(['boolean']);
  });
});

describe('the hook on call()', () => {
  const respond =
    (status: number, body: unknown): Handler =>
    async () => ({ statusCode: status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('fails a handler test whose response does not match the description', async () => {
    const handler = respond(200, success({ count: 1, drafts: [{ ...draft, id: '1' }] }));
    await expect(call(handler, { method: 'GET', path: '/drafts' })).rejects.toThrow('/drafts/0/id: must be integer, got string "1"');
  });

  it('fails a handler test whose error body has no code', async () => {
    await expect(
      call(respond(404, { result: 'error', msg: 'Draft does not exist' }), { method: 'DELETE', path: '/drafts/9' }),
    ).rejects.toThrow('/: missing required field "code"');
  });

  it('lets a matching response through', async () => {
    const result = await call(respond(200, success({ count: 1, drafts: [draft] })), { method: 'GET', path: '/drafts' });
    expect(result.status).toBe(200);
  });
});
