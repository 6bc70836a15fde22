// Checks responses and events against the upstream OpenAPI description (test/data/zulip-openapi.yaml),
// which the upstream clients are written against:
// - a 200 of an endpoint the description documents must match that endpoint's 200 schema;
// - every event of a GET /events response must match one of the description's event schemas;
// - every error body must have the generic error shape (result, msg, code), and BAD_EVENT_QUEUE_ID
//   and REQUEST_VARIABLE_MISSING bodies their own schema too.
// Endpoints the description does not document (test-only ones) are skipped for success bodies
// only. openapi-hook.ts runs this on every handler-test response; the e2e helper calls
// validateResponse, the event helper validateEvent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';
import {
  CACHE_DIR,
  hasResponseSchema,
  loadDescription,
  loadedDescriptionHash,
  mergedSchema,
  responseSchema,
  sha256,
  toJsonSchema,
  writeCacheFile,
  type SchemaObject,
} from './openapi-schema';

/** The newest API feature level the description documents (see test/data/zulip-openapi.NOTICE). */
export const DESCRIPTION_FEATURE_LEVEL = 497;

// ---------------------------------------------------------------------------------------------
// The allow-list: the only intended differences between our contract and the description.
// ---------------------------------------------------------------------------------------------

/**
 * POST /register keys the description does not know, each checked with the schema of the
 * upstream key it mirrors. Reason for all three: the contract (api-spec.md, "Versioning" and the
 * register response table) names the version fields with a neutral word in place of the maker's
 * name, sent besides the upstream `zulip_*` names, which clients still read.
 */
const REGISTER_KEYS_MIRRORING = {
  service_feature_level: 'zulip_feature_level',
  service_version: 'zulip_version',
  service_merge_base: 'zulip_merge_base',
} as const;

/**
 * Top-level POST /register keys the description cannot know: accepted (unchecked) only when the
 * response declares a feature level above DESCRIPTION_FEATURE_LEVEL. Reason: a newer server adds
 * register keys with each feature level, and the description is a snapshot of level 497.
 */
const newerRegisterKeyAllowed =
  (body: Record<string, unknown>) =>
  (error: ErrorObject): boolean =>
    typeof body.zulip_feature_level === 'number' &&
    body.zulip_feature_level > DESCRIPTION_FEATURE_LEVEL &&
    error.keyword === 'additionalProperties' &&
    error.instancePath === '';

// Error bodies that upstream sends without an error code: they are not JsonableErrors, and the
// description has no schema for them, so they are checked against upstream's exact shape here
// (zulip-behavior.md, "HTTP status codes"): 405 from the REST dispatcher, 500 from the JSON error
// middleware.
const BODIES_WITHOUT_CODE: Record<number, SchemaObject> = {
  405: {
    type: 'object',
    required: ['result', 'msg', 'allowed_methods'],
    additionalProperties: false,
    properties: { result: { enum: ['error'] }, msg: { type: 'string' }, allowed_methods: { type: 'array', items: { type: 'string' } } },
  },
  500: {
    type: 'object',
    required: ['result', 'msg'],
    additionalProperties: false,
    properties: { result: { enum: ['error'] }, msg: { type: 'string' } },
  },
};

// ---------------------------------------------------------------------------------------------

export class OpenApiMismatchError extends Error {
  constructor(
    message: string,
    readonly problems: string[],
  ) {
    super(message);
    this.name = 'OpenApiMismatchError';
  }
}

let ajvInstance: Ajv | undefined;
const ajv = (): Ajv => {
  if (!ajvInstance) {
    // strict: an unknown keyword or a malformed schema is a preparation bug, not something to skip.
    // optimize: false compiles the register schema ~4x faster; validation speed does not matter here.
    // source: keeps the generated code, which is cached on disk for the next test file.
    ajvInstance = new Ajv({ allErrors: true, strict: true, code: { optimize: false, source: true } });
    addFormats(ajvInstance);
  }
  return ajvInstance;
};

let cachePrefix: string | undefined;
/** What a compiled validator depends on besides its key: the description, this code, Ajv. */
const validatorCachePrefix = (): string => {
  cachePrefix ??= sha256(
    loadedDescriptionHash(),
    readFileSync(__filename),
    readFileSync(join(__dirname, 'openapi-schema.ts')),
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file read at run time
    (require('ajv/package.json') as { version: string }).version,
  );
  return cachePrefix;
};

const compiled = new Map<string, ValidateFunction>();

/**
 * The validator for `key`, built and compiled once per test file and cached on disk as
 * standalone code for the following files (compiling the register schema takes ~0.5 s).
 */
const compileOnce = (key: string, build: () => SchemaObject): ValidateFunction => {
  let validate = compiled.get(key);
  if (validate) return validate;
  const file = join(CACHE_DIR, `validator.${sha256(validatorCachePrefix(), key)}.js`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- generated code cached on disk
    validate = require(file) as ValidateFunction;
  } catch {
    validate = ajv().compile(build());
    writeCacheFile(file, standaloneCode(ajv(), validate));
  }
  compiled.set(key, validate);
  return validate;
};

// ---------------------------------------------------------------------------------------------
// Request path → the description's path template
// ---------------------------------------------------------------------------------------------

type Template = { template: string; segments: string[]; literals: number };
let templates: Template[] | undefined;

const allTemplates = (): Template[] => {
  templates ??= Object.keys(loadDescription().paths).map((template) => {
    const segments = template.split('/').filter(Boolean);
    return { template, segments, literals: segments.filter((s) => !s.startsWith('{')).length };
  });
  return templates;
};

/** Upstream's rule: parameters named `…id` are numbers, `…email` are emails, others any segment. */
const segmentMatches = (pattern: string, segment: string): boolean => {
  if (!pattern.startsWith('{')) return pattern === segment;
  const name = pattern.slice(1, -1);
  if (name.endsWith('id')) return /^\d+$/.test(segment);
  if (name.endsWith('email')) return /^[^@/]+@[^@/]+$/.test(segment);
  return segment.length > 0;
};

/** Strips an origin, the /api/v1 (or /json) prefix and the query string: `/drafts/5`. */
export const apiPath = (path: string): string => {
  let p = path.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
  p = p.replace(/^\/(api\/v1|json)(?=\/|$)/, '');
  return p === '' ? '/' : p;
};

/** The description's template for a concrete path (`/drafts/5` → `/drafts/{draft_id}`), if any. */
export const findTemplate = (path: string): string | undefined => {
  const segments = apiPath(path)
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));
  const matches = allTemplates().filter(
    (t) => t.segments.length === segments.length && t.segments.every((pattern, i) => segmentMatches(pattern, segments[i])),
  );
  // A literal segment beats a parameter: /users/me wins over /users/{email}.
  matches.sort((a, b) => b.literals - a.literals);
  return matches[0]?.template;
};

// ---------------------------------------------------------------------------------------------
// Readable errors
// ---------------------------------------------------------------------------------------------

const valueAt = (data: unknown, pointer: string): unknown => {
  let value: any = data;
  for (const part of pointer.split('/').slice(1)) value = value?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return value;
};

const show = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `${kind} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
};

/**
 * Among the branches of a failed anyOf/oneOf, keeps the errors of the branch the value was most
 * likely meant to match, so a wrong type deep inside a group-setting object is reported as such
 * rather than as "must be integer".
 */
const pruneBranches = (errors: ErrorObject[]): ErrorObject[] => {
  let remaining = errors;
  const combinators = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length || b.schemaPath.length - a.schemaPath.length);
  for (const combinator of combinators) {
    const prefix = `${combinator.schemaPath}/`;
    const byBranch = new Map<string, ErrorObject[]>();
    // The same schema path recurs for each item of an array: the instance path tells them apart.
    const within = (e: ErrorObject) =>
      e.schemaPath.startsWith(prefix) &&
      (e.instancePath === combinator.instancePath || e.instancePath.startsWith(`${combinator.instancePath}/`));
    for (const e of remaining) {
      if (!within(e)) continue;
      const branch = e.schemaPath.slice(prefix.length).split('/')[0];
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
    }
    if (byBranch.size === 0) continue; // oneOf matched twice: the combinator error says so.
    // A branch whose type the value does not have at all is not what the value was meant to be;
    // of the others, the one with the fewest errors is (ties are all reported).
    const entries = [...byBranch.entries()];
    const wrongKind = (list: ErrorObject[]) => list.some((e) => e.keyword === 'type' && e.instancePath === combinator.instancePath);
    const plausible = entries.filter(([, list]) => !wrongKind(list));
    const pool = plausible.length > 0 ? plausible : entries;
    const fewest = Math.min(...pool.map(([, list]) => list.length));
    const kept = new Set(pool.filter(([, list]) => list.length === fewest).map(([branch]) => branch));
    remaining = remaining.filter((e) => {
      if (e === combinator) return false;
      if (!within(e)) return true;
      return kept.has(e.schemaPath.slice(prefix.length).split('/')[0]);
    });
  }
  return remaining;
};

const describeError = (error: ErrorObject, data: unknown, prefix: string): string => {
  const at = `${prefix}${error.instancePath}` || '/';
  const params = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}: unknown field "${params.additionalProperty}" (not in the description)`;
    case 'required':
      return `${at}: missing required field "${params.missingProperty}"`;
    case 'type':
      return `${at}: must be ${params.type}, got ${show(valueAt(data, error.instancePath))}`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify(params.allowedValues)}, got ${show(valueAt(data, error.instancePath))}`;
    default:
      return `${at}: ${error.message ?? error.keyword}, got ${show(valueAt(data, error.instancePath))}`;
  }
};

const problemsOf = (validate: ValidateFunction, data: unknown, prefix = '', allowed?: (error: ErrorObject) => boolean): string[] => {
  if (validate(data)) return [];
  const errors = pruneBranches(validate.errors ?? []).filter((e) => !allowed?.(e));
  return [...new Set(errors.map((e) => describeError(e, data, prefix)))];
};

const fail = (what: string, problems: string[]): never => {
  throw new OpenApiMismatchError(`${what} does not match the OpenAPI description:\n  ${problems.join('\n  ')}`, problems);
};

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

type EventBranch = { index: number; types: unknown[]; ops: unknown[] | undefined; schema: SchemaObject };
let eventBranches: EventBranch[] | undefined;

/** The branches of the `events` item schema of GET /events, keyed by their `type` and `op` enums. */
const allEventBranches = (): EventBranch[] => {
  if (!eventBranches) {
    const envelope = responseSchema('/events', 'get', '200');
    const branches: SchemaObject[] = envelope?.properties?.events?.items?.oneOf ?? [];
    if (branches.length === 0) throw new Error('the description has no event schemas under GET /events');
    eventBranches = branches.map((schema, index) => ({
      index,
      schema,
      types: schema.properties?.type?.enum ?? [],
      ops: schema.properties?.op?.enum,
    }));
  }
  return eventBranches;
};

/** What is wrong with an event (empty when it matches an event schema of the description). */
export const eventProblems = (event: unknown, prefix = ''): string[] => {
  const at = prefix || '/';
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return [`${at}: an event must be an object, got ${show(event)}`];
  const { type, op } = event as { type?: unknown; op?: unknown };
  const ofType = allEventBranches().filter((b) => b.types.includes(type));
  if (ofType.length === 0) return [`${at}/type: the description has no event of type ${JSON.stringify(type)}`];
  const candidates = ofType.filter((b) => b.ops === undefined || op === undefined || b.ops.includes(op));
  if (candidates.length === 0) {
    const ops = ofType.flatMap((b) => b.ops ?? []);
    return [`${at}/op: the description has no ${JSON.stringify(type)} event with op ${JSON.stringify(op)} (known: ${ops.join(', ')})`];
  }
  // Several schemas may share a type and op (e.g. legacy and modern shapes): one must match.
  let best: string[] | undefined;
  for (const branch of candidates) {
    const validate = compileOnce(`event ${branch.index}`, () => toJsonSchema(branch.schema) as SchemaObject);
    const problems = problemsOf(validate, event, prefix);
    if (problems.length === 0) return [];
    if (!best || problems.length < best.length) best = problems;
  }
  return best ?? [];
};

/**
 * Throws a readable OpenApiMismatchError unless the event matches an event schema of the
 * description. An event without `id` is checked as if the queue had numbered it (the event test
 * helper drains events without their ids); GET /events responses are checked with their own ids.
 */
export const validateEvent = (event: unknown): void => {
  const numbered = typeof event === 'object' && event !== null && !Array.isArray(event) && !('id' in event) ? { id: 0, ...event } : event;
  const problems = eventProblems(numbered);
  if (problems.length > 0) {
    const { type, op } = (event ?? {}) as { type?: unknown; op?: unknown };
    fail(`Event ${JSON.stringify(type)}${op === undefined ? '' : `/${JSON.stringify(op)}`}`, problems);
  }
};

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const successValidator = (template: string, method: string): ValidateFunction | undefined => {
  if (!hasResponseSchema(template, method, '200')) return undefined;
  return compileOnce(`${method} ${template} 200`, () => {
    let schema = responseSchema(template, method, '200')!;
    if (template === '/events' && method === 'get') {
      // Events are checked one by one against their own schema (eventProblems), for readable errors.
      schema = { ...schema, properties: { ...schema.properties, events: { type: 'array' } } };
    }
    if (template === '/register' && method === 'post') {
      const properties = { ...schema.properties };
      for (const [ours, upstream] of Object.entries(REGISTER_KEYS_MIRRORING)) properties[ours] = properties[upstream];
      schema = { ...schema, properties };
    }
    return toJsonSchema(schema) as SchemaObject;
  });
};

/**
 * Error codes whose body the description gives a dedicated schema, checked beyond the generic
 * shape, with the extra fields the contract (api-spec.md "Errors", zulip-behavior.md) says they
 * carry, which the description does not mark required. The per-endpoint error responses are not
 * used: they are oneOf branches of one CodedError schema (no extra fields) that differ only in
 * their examples, which upstream never checks (its harness skips 4xx bodies) and which contradict
 * it (the `objections` of CANNOT_DEACTIVATE_GROUP_IN_USE, the fractional `retry-after` of
 * RATE_LIMIT_HIT), and any endpoint may answer the common errors they leave out
 * (REQUEST_VARIABLE_MISSING). Other codes get the contract's envelope: result, msg, code, and
 * optional extra fields.
 */
const ERROR_SCHEMAS_BY_CODE: Record<string, { schema: string; requires: string[] }> = {
  BAD_EVENT_QUEUE_ID: { schema: 'BadEventQueueIdError', requires: ['queue_id'] },
  REQUEST_VARIABLE_MISSING: { schema: 'MissingArgumentError', requires: ['var_name'] },
};

const componentValidator = (name: string, requires: string[] = []): ValidateFunction =>
  compileOnce(`component ${name}`, () => {
    const schema = loadDescription().components.schemas[name];
    if (!schema) throw new Error(`the description has no schema ${name}`);
    const merged = mergedSchema(schema);
    return toJsonSchema({ ...merged, required: [...(merged.required ?? []), ...requires] }) as SchemaObject;
  });

const errorProblems = (status: number, body: unknown): string[] => {
  const withoutCode = BODIES_WITHOUT_CODE[status];
  if (withoutCode)
    return problemsOf(
      compileOnce(`status ${status}`, () => withoutCode),
      body,
    );
  const problems = problemsOf(componentValidator('CodedErrorBase'), body);
  if (problems.length > 0) return problems;
  const dedicated = ERROR_SCHEMAS_BY_CODE[(body as { code: string }).code];
  return dedicated ? problemsOf(componentValidator(dedicated.schema, dedicated.requires), body) : [];
};

/** What is wrong with a response (empty when it matches, or when the description does not document it). */
export const responseProblems = (method: string, path: string | undefined, status: number, body: unknown): string[] => {
  if (status >= 400) return errorProblems(status, body);
  if (status !== 200 || path === undefined) return [];
  const template = findTemplate(path);
  if (!template) return [];
  const verb = method.toLowerCase();
  const validate = successValidator(template, verb);
  if (!validate) return [];
  const isRegister = template === '/register' && verb === 'post';
  let problems = problemsOf(validate, body, '', isRegister ? newerRegisterKeyAllowed(body as Record<string, unknown>) : undefined);
  if (template === '/events' && verb === 'get') {
    const events = (body as { events?: unknown }).events;
    if (Array.isArray(events)) problems = [...problems, ...events.flatMap((event, i) => eventProblems(event, `/events/${i}`))];
  }
  return problems;
};

/**
 * Throws a readable OpenApiMismatchError unless the response matches the description: a 200
 * against the endpoint's 200 schema (events one by one), an error body against the error shapes.
 * `path` is the request path, with or without /api/v1 (`/drafts/5`, `/api/v1/events?queue_id=x`).
 */
export const validateResponse = (method: string, path: string | undefined, status: number, body: unknown): void => {
  const problems = responseProblems(method, path, status, body);
  if (problems.length > 0) fail(`Response to ${method.toUpperCase()} ${path ?? '(no path)'} (${status})`, problems);
};

// ---------------------------------------------------------------------------------------------
// Register keys a client cannot do without
// ---------------------------------------------------------------------------------------------

/**
 * The keys the current upstream mobile client requires in a register snapshot (issue 8): it
 * refuses a snapshot that lacks any of them.
 */
export const REQUIRED_REGISTER_KEYS = [
  'last_event_id',
  'zulip_feature_level',
  'zulip_version',
  'zulip_merge_base',
  'alert_words',
  'custom_profile_fields',
  'max_stream_name_length',
  'max_topic_length',
  'server_presence_ping_interval_seconds',
  'server_presence_offline_threshold_seconds',
  'muted_users',
  'presences',
  'realm_emoji',
  'realm_user_groups',
  'recent_private_conversations',
  'subscriptions',
  'unread_msgs',
  'starred_messages',
  'streams',
  'user_status',
  'user_settings',
  'user_topics',
  'realm_wildcard_mention_policy',
  'realm_name',
  'realm_waiting_period_threshold',
  'realm_allow_message_editing',
  'realm_enable_read_receipts',
  'realm_icon_url',
  'realm_presence_disabled',
  'realm_default_external_accounts',
  'max_file_upload_size_mib',
  'server_emoji_data_url',
  'event_queue_longpoll_timeout_seconds',
  'realm_users',
  'realm_non_active_users',
  'cross_realm_bots',
] as const;

const jsonTypeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

/** The JSON types the description allows for a top-level register key (`integer` also counts as `number`). */
export const registerKeyTypes = (key: string): string[] => {
  const schema = responseSchema('/register', 'post', '200')?.properties?.[key];
  if (!schema) throw new Error(`the description has no register key ${key}`);
  const types: string[] = Array.isArray(schema.type) ? [...schema.type] : schema.type ? [schema.type] : [];
  if (types.length === 0) throw new Error(`the description gives no type for register key ${key}`);
  if (schema.nullable === true) types.push('null');
  return types;
};

/**
 * Asserts that a register response carries every key of REQUIRED_REGISTER_KEYS with the JSON
 * type the description gives it; lists every missing or mistyped key at once.
 */
export const expectRegisterKeys = (body: Record<string, unknown>): void => {
  const problems: string[] = [];
  for (const key of REQUIRED_REGISTER_KEYS) {
    if (!(key in body)) {
      problems.push(`/${key}: missing`);
      continue;
    }
    const allowed = registerKeyTypes(key);
    const actual = jsonTypeOf(body[key]);
    if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) {
      problems.push(`/${key}: must be ${allowed.join(' or ')}, got ${show(body[key])}`);
    }
  }
  if (problems.length > 0) {
    throw new OpenApiMismatchError(`Register response lacks keys the mobile client requires:\n  ${problems.join('\n  ')}`, problems);
  }
};
