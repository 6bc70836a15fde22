// A hostile payload, read safely (upstream's WildValue): every read names the path it took, and a
// value of the wrong type, or a missing one that the integration needs, is a 400 with that path
// (`payload["repository"]["name"] is not a string`), never a crash.
import { BadRequestError } from '../errors';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export class Wild {
  constructor(
    readonly value: unknown,
    readonly path: string = 'payload',
  ) {}

  /** The member `key` (a missing one reads as absent; reading it as a type is then an error). */
  get(key: string | number): Wild {
    const child = `${this.path}[${typeof key === 'number' ? key : JSON.stringify(key)}]`;
    if (typeof key === 'number') return new Wild(Array.isArray(this.value) ? this.value[key] : undefined, child);
    return new Wild(isObject(this.value) && Object.hasOwn(this.value, key) ? this.value[key] : undefined, child);
  }

  /** Whether the member `key` is present (Python's `key in payload`), null or not. */
  has(key: string): boolean {
    return isObject(this.value) && Object.hasOwn(this.value, key);
  }

  /** Whether the value is present and not null. */
  get exists(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  /** Python's truthiness: absent, null, false, 0, '', [] and {} are false. */
  get truthy(): boolean {
    const v = this.value;
    if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
    if (Array.isArray(v)) return v.length > 0;
    if (isObject(v)) return Object.keys(v).length > 0;
    return true;
  }

  private fail(what: string): never {
    if (this.value === undefined) throw new BadRequestError(`${this.path} is missing`);
    throw new BadRequestError(`${this.path} is not ${what}`);
  }

  str(): string {
    return typeof this.value === 'string' ? this.value : this.fail('a string');
  }

  /** The string, or undefined when absent or null. */
  optStr(): string | undefined {
    return this.exists ? this.str() : undefined;
  }

  int(): number {
    return typeof this.value === 'number' && Number.isInteger(this.value) ? this.value : this.fail('an integer');
  }

  optInt(): number | undefined {
    return this.exists ? this.int() : undefined;
  }

  num(): number {
    return typeof this.value === 'number' && Number.isFinite(this.value) ? this.value : this.fail('a number');
  }

  bool(): boolean {
    return typeof this.value === 'boolean' ? this.value : this.fail('a boolean');
  }

  /** The members of a list. */
  list(): Wild[] {
    if (!Array.isArray(this.value)) this.fail('a list');
    return (this.value as unknown[]).map((item, i) => new Wild(item, `${this.path}[${i}]`));
  }

  /** The members of a list, or none when absent or null. */
  optList(): Wild[] {
    return this.exists ? this.list() : [];
  }

  /** The keys of an object, in order. */
  keys(): string[] {
    if (!isObject(this.value)) this.fail('a dict');
    return Object.keys(this.value as Record<string, unknown>);
  }

  isObject(): boolean {
    return isObject(this.value);
  }
}

/** Nesting no third party sends; deeper JSON would overflow the stack of whatever walks it. */
const MAX_JSON_DEPTH = 200;

const depthWithin = (root: unknown, limit: number): boolean => {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return false;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return true;
};

/** Parses a JSON body; undefined when it is not JSON, or nested deeper than any service sends. */
export const parseJsonPayload = (text: string): { value: unknown } | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return depthWithin(value, MAX_JSON_DEPTH) ? { value } : undefined;
  } catch {
    return undefined;
  }
};
