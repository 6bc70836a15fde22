// Validators for JSON-typed parameters: each checks a decoded value at a path (for messages such
// as `drafts[0]["content"] is not a string`) and returns it typed. Strict, like upstream's
// pydantic models: `1` is not a boolean, `true` is not an integer, extra object keys are refused.
import { BadRequestError } from '../errors';
import { MESSAGES } from './messages';

export type Validator<T> = (value: unknown, path: string) => T;
export type Infer<V> = V extends Validator<infer T> ? T : never;

const fail = (message: string): never => {
  throw new BadRequestError(message);
};

export const bool: Validator<boolean> = (value, path) => (typeof value === 'boolean' ? value : fail(MESSAGES.notBool(path)));

/**
 * An integer this service can represent exactly: JSON numbers are decoded as doubles, so one
 * beyond ±(2^53 − 1) has already been rounded (9007199254740993 reads as …992) and would be
 * stored as a different value; it is refused as out of range, with upstream's range messages.
 */
export const int: Validator<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) return fail(MESSAGES.notInt(path));
  if (value > Number.MAX_SAFE_INTEGER) return fail(MESSAGES.tooLarge(path));
  if (value < Number.MIN_SAFE_INTEGER) return fail(MESSAGES.tooSmall(path));
  return value;
};

/** An integer within bounds, with the upstream "too small"/"too large" messages. */
export const intInRange =
  (min: number, max: number): Validator<number> =>
  (value, path) => {
    const n = int(value, path);
    if (n < min) fail(MESSAGES.tooSmall(path));
    if (n > max) fail(MESSAGES.tooLarge(path));
    return n;
  };

/** Upstream's check_int_in_validator: an integer among `values`, else "Invalid {var}: Value error, Not in the list of possible values". */
export const intIn =
  <const T extends readonly number[]>(values: T): Validator<T[number]> =>
  (value, path) => {
    const n = int(value, path);
    return (values as readonly number[]).includes(n)
      ? (n as T[number])
      : fail(MESSAGES.invalidWith(path, 'Value error, Not in the list of possible values'));
  };

/** Upstream's check_string_in_validator: a string among `values`, else "Invalid {var}: Value error, Not in the list of possible values". */
export const stringIn =
  <const T extends readonly string[]>(values: T): Validator<T[number]> =>
  (value, path) => {
    const s = str(value, path);
    return (values as readonly string[]).includes(s)
      ? (s as T[number])
      : fail(MESSAGES.invalidWith(path, 'Value error, Not in the list of possible values'));
  };

/** Upstream's NonNegativeInt: an integer, "{var} is too small" below 0. */
export const nonNegativeInt: Validator<number> = (value, path) => {
  const n = int(value, path);
  return n >= 0 ? n : fail(MESSAGES.tooSmall(path));
};

export const float: Validator<number> = (value, path) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fail(MESSAGES.notFloat(path));

export const str: Validator<string> = (value, path) => (typeof value === 'string' ? value : fail(MESSAGES.notString(path)));

/** A string with a length limit and optional non-blank rule. */
export const string =
  (opts: { maxLength?: number; minLength?: number } = {}): Validator<string> =>
  (value, path) => {
    const s = str(value, path);
    if (opts.minLength !== undefined && s.length < opts.minLength)
      fail(opts.minLength === 1 ? MESSAGES.blank(path) : MESSAGES.tooShort(path));
    if (opts.maxLength !== undefined && [...s].length > opts.maxLength) fail(MESSAGES.tooLong(path, opts.maxLength));
    return s;
  };

/** A string matching a pattern (upstream's StringConstraints(pattern=...)): `{var} has invalid format` otherwise. */
export const matching =
  (pattern: RegExp): Validator<string> =>
  (value, path) => {
    const s = str(value, path);
    return pattern.test(s) ? s : fail(MESSAGES.badFormat(path));
  };

/** One of a fixed set of values: `Invalid {var}` otherwise. */
export const literal =
  <const T extends readonly (string | number | boolean)[]>(...options: T): Validator<T[number]> =>
  (value, path) =>
    options.includes(value as T[number]) ? (value as T[number]) : fail(MESSAGES.invalid(path));

export const list =
  <T>(item: Validator<T>): Validator<T[]> =>
  (value, path) =>
    Array.isArray(value) ? value.map((v, i) => item(v, `${path}[${i}]`)) : fail(MESSAGES.notList(path));

export const nullable =
  <T>(inner: Validator<T>): Validator<T | null> =>
  (value, path) =>
    value === null ? null : inner(value, path);

/** The first validator that accepts the value wins; otherwise the first one's error is raised. */
export const union =
  <A, B>(a: Validator<A>, b: Validator<B>): Validator<A | B> =>
  (value, path) => {
    try {
      return a(value, path);
    } catch (error) {
      try {
        return b(value, path);
      } catch {
        throw error;
      }
    }
  };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const dict: Validator<Record<string, unknown>> = (value, path) => (isPlainObject(value) ? value : fail(MESSAGES.notDict(path)));

type Shape = Record<string, Validator<unknown>>;
type ObjectOf<S extends Shape, O extends keyof S> = { [K in Exclude<keyof S, O>]: Infer<S[K]> } & { [K in O]?: Infer<S[K]> };

/**
 * A JSON object with declared keys. Keys listed in `optional` may be absent; unknown keys are
 * refused unless `allowExtra` (upstream's TypedDicts ignore extras, its models forbid them).
 */
export const object =
  <S extends Shape, O extends keyof S = never>(
    shape: S,
    opts: { optional?: readonly O[]; allowExtra?: boolean } = {},
  ): Validator<ObjectOf<S, O>> =>
  (value, path) => {
    const input = dict(value, path);
    const out: Record<string, unknown> = {};
    for (const [key, validate] of Object.entries(shape)) {
      const keyPath = `${path}["${key}"]`;
      if (!(key in input)) {
        if ((opts.optional as readonly string[] | undefined)?.includes(key)) continue;
        fail(MESSAGES.fieldMissing(keyPath));
      }
      out[key] = validate(input[key], keyPath);
    }
    if (!opts.allowExtra) {
      for (const key of Object.keys(input)) if (!(key in shape)) fail(MESSAGES.unexpected(key, `${path}["${key}"]`));
    }
    return out as ObjectOf<S, O>;
  };

/** Upstream's check_color: `#` and 3 to 6 hex digits, the message naming `name` (upstream's fixed names such as `add.color`). */
export const hexColor =
  (name?: string): Validator<string> =>
  (value, path) =>
    typeof value === 'string' && /^#[a-fA-F0-9]{3,6}$/.test(value) ? value : fail(`${name ?? path} is not a valid hex color code`);
