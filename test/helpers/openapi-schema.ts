// Loads the upstream OpenAPI description (test/data/zulip-openapi.yaml) and prepares its schemas
// for a standard JSON Schema validator, the way upstream's own test harness does
// (zerver/openapi/openapi.py): resolve every $ref, merge allOf branches naively (later branches
// override and extend earlier ones), then turn OpenAPI's `nullable: true` into a null type.
// The file itself is never edited; everything happens here, at load time. (Upstream also reads
// the error responses' oneOf as anyOf, because their branches are one CodedError schema with
// different examples; openapi.ts checks error bodies by code instead, see ERROR_SCHEMAS_BY_CODE.)
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

export type SchemaObject = { [keyword: string]: any };
export type Schema = SchemaObject | boolean;

export type Operation = { responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }> };
export type Description = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaObject> };
};

export const DESCRIPTION_PATH = join(__dirname, '..', 'data', 'zulip-openapi.yaml');
// jest gives every test file a fresh module registry, so work worth keeping between test files
// (the parsed YAML, compiled validators) is cached on disk, under names that hash their inputs.
export const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'openapi');

export const sha256 = (...parts: (string | Buffer)[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 24);
};

/** Writes a cache file; write then rename, so a parallel worker never reads a half-written file. */
export const writeCacheFile = (file: string, content: string): void => {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch {
    // A read-only checkout only loses the cache.
  }
};

let description: Description | undefined;
let descriptionHash: string | undefined;

/** A hash of the description file: part of every cache key. */
export const loadedDescriptionHash = (): string => {
  loadDescription();
  return descriptionHash!;
};

/** The parsed description (YAML parsing costs ~120 ms; the cached JSON ~20 ms). */
export const loadDescription = (): Description => {
  if (description) return description;
  const source = readFileSync(DESCRIPTION_PATH);
  descriptionHash = sha256(source);
  const cacheFile = join(CACHE_DIR, `zulip-openapi.${descriptionHash}.json`);
  try {
    description = JSON.parse(readFileSync(cacheFile, 'utf8')) as Description;
    return description;
  } catch {
    // No usable cache yet: parse the YAML and write the cache for the next test file.
  }
  description = load(source.toString('utf8')) as Description;
  writeCacheFile(cacheFile, JSON.stringify(description));
  return description;
};

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows a local reference such as `#/components/schemas/Draft`. */
const lookup = (doc: Description, ref: string): unknown => {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let target: any = doc;
  for (const part of ref.slice(2).split('/')) {
    target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return target;
};

/** Replaces every `{$ref}` by its target (shared, not copied), refusing cycles. */
const resolveRefs = (doc: Description, node: unknown, resolved: Map<string, unknown>, stack: string[] = []): unknown => {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(doc, item, resolved, stack));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (stack.includes(ref)) throw new Error(`circular $ref ${[...stack, ref].join(' -> ')}`);
    if (!resolved.has(ref)) resolved.set(ref, resolveRefs(doc, lookup(doc, ref), resolved, [...stack, ref]));
    return resolved.get(ref);
  }
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolveRefs(doc, value, resolved, stack);
  return out;
};

/**
 * Upstream's naive merge: keys of `b` missing from `a` are added, lists are concatenated, objects
 * merged recursively, and for other values `a` wins (except `example`, which `b` replaces).
 */
const naiveMerge = (a: SchemaObject, b: SchemaObject): SchemaObject => {
  const out: SchemaObject = { ...a };
  for (const [key, bValue] of Object.entries(b)) {
    if (key === 'example' || !(key in out)) {
      out[key] = bValue;
      continue;
    }
    const aValue = out[key];
    if (Array.isArray(bValue)) {
      if (!Array.isArray(aValue)) throw new Error(`cannot merge a list into a non-list at "${key}"`);
      out[key] = [...aValue, ...bValue];
    } else if (isObject(bValue)) {
      if (!isObject(aValue)) throw new Error(`cannot merge an object into a non-object at "${key}"`);
      out[key] = naiveMerge(aValue, bValue);
    }
  }
  return out;
};

const mergeAllOf = (node: unknown, memo: WeakMap<object, unknown>): unknown => {
  if (Array.isArray(node)) return node.map((item) => mergeAllOf(item, memo));
  if (!isObject(node)) return node;
  const cached = memo.get(node);
  if (cached !== undefined) return cached;
  let out: SchemaObject;
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    out = mergeAllOf(rest, memo) as SchemaObject;
    for (const branch of allOf) out = naiveMerge(out, mergeAllOf(branch, memo) as SchemaObject);
  } else {
    out = {};
    for (const [key, value] of Object.entries(node)) out[key] = mergeAllOf(value, memo);
  }
  memo.set(node, out);
  return out;
};

// Keywords that only document: dropped, because strict mode rejects those it does not know
// (OpenAPI's `example`, vendor extensions) and the others only make compiled validators bigger.
const ANNOTATIONS = new Set(['example', 'examples', 'description', 'title', 'deprecated', 'default', 'readOnly', 'writeOnly']);
const isAnnotation = (key: string): boolean => ANNOTATIONS.has(key) || key.startsWith('x-');

/** Keywords whose value is a map from names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'additionalItems']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/**
 * Turns a merged OpenAPI schema object into a JSON Schema (draft-07) for Ajv: `nullable: true`
 * adds the null type (and null to an `enum`), and annotations are dropped. Walks only schema
 * positions, so a property named `example` is kept.
 */
export const toJsonSchema = (node: Schema, memo = new WeakMap<object, Schema>()): Schema => {
  if (!isObject(node)) return node;
  const cached = memo.get(node);
  if (cached !== undefined) return cached;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (isAnnotation(key) || key === 'nullable') continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub as Schema, memo)]));
    } else if (SCHEMA_VALUES.has(key) && (isObject(value) || typeof value === 'boolean')) {
      out[key] = toJsonSchema(value, memo);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => toJsonSchema(sub, memo));
    } else if (key === 'required' && Array.isArray(value)) {
      // Merged allOf branches may list a field twice.
      out[key] = [...new Set(value)];
    } else {
      out[key] = value;
    }
  }
  const result = node.nullable === true ? withNull(out) : out;
  memo.set(node, result);
  return result;
};

const withNull = (schema: SchemaObject): SchemaObject => {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema = { ...schema, enum: [...schema.enum, null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
};

let mergedCache: { resolved: Map<string, unknown>; memo: WeakMap<object, unknown> } | undefined;

/** An OpenAPI schema with its $refs resolved and allOf merged, as upstream's harness prepares it. */
export const mergedSchema = (schema: unknown): SchemaObject => {
  mergedCache ??= { resolved: new Map(), memo: new WeakMap() };
  return mergeAllOf(resolveRefs(loadDescription(), schema, mergedCache.resolved), mergedCache.memo) as SchemaObject;
};

const rawResponseSchema = (template: string, method: string, status: string): SchemaObject | undefined => {
  const doc = loadDescription();
  let response: any = doc.paths[template]?.[method]?.responses?.[status];
  // Shared responses (`SimpleSuccess`) are referenced as a whole.
  if (typeof response?.$ref === 'string') response = lookup(doc, response.$ref);
  return response?.content?.['application/json']?.schema;
};

/** Whether the description documents a JSON body for this response, without preparing it. */
export const hasResponseSchema = (template: string, method: string, status: string): boolean =>
  rawResponseSchema(template, method, status) !== undefined;

/** The merged schema of a response (`status` as in the description: "200", "400"), if documented. */
export const responseSchema = (template: string, method: string, status: string): SchemaObject | undefined => {
  const schema = rawResponseSchema(template, method, status);
  return schema ? mergedSchema(schema) : undefined;
};
