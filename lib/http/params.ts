// Typed request parameters. A declaration gives both the TypeScript type and the runtime check:
//   const { status, ping_only } = params({ status: rawString(), ping_only: json(bool).default(false) });
// Values come from the body (form or multipart) and then the query string, for every method, as
// upstream reads request.POST then request.GET. JSON-typed values are decoded first; raw strings
// are taken as sent. Every key a declaration reads is marked consumed, for ignored_parameters_unsupported.
import { ApiError, BadRequestError, ErrorCode, MissingArgumentError } from '../errors';
import { MESSAGES } from '../validation/messages';
import type { Validator } from '../validation/validators';

type Kind = 'raw' | 'json';

export class ParamSpec<T> {
  constructor(
    readonly kind: Kind,
    readonly validate: Validator<unknown> | undefined,
    readonly required: boolean,
    readonly defaultValue: T | undefined,
    readonly aliases: readonly string[] = [],
  ) {}

  /** May be absent (or the JSON `null` for a JSON parameter): then undefined. */
  optional(): ParamSpec<T | undefined> {
    return new ParamSpec<T | undefined>(this.kind, this.validate, false, undefined, this.aliases);
  }

  /** May be absent: then `value`. */
  default(value: T): ParamSpec<T> {
    return new ParamSpec<T>(this.kind, this.validate, false, value, this.aliases);
  }

  /** Also accepted under older names (upstream's REQ aliases); two at once is an error. */
  alias(...names: string[]): ParamSpec<T> {
    return new ParamSpec<T>(this.kind, this.validate, this.required, this.defaultValue, names);
  }
}

/** A string parameter taken raw (not JSON-decoded), optionally validated. */
export const rawString = <T extends string = string>(validate?: Validator<T>): ParamSpec<T> =>
  new ParamSpec<T>('raw', validate as Validator<unknown> | undefined, true, undefined);

/** A JSON-encoded parameter checked by a validator. */
export const json = <T>(validate: Validator<T>): ParamSpec<T> => new ParamSpec<T>('json', validate as Validator<unknown>, true, undefined);

export type Values<S extends Record<string, ParamSpec<unknown>>> = { [K in keyof S]: S[K] extends ParamSpec<infer T> ? T : never };

/** The raw parameters of a request, and which of them a handler has read. */
export class RequestParams {
  private readonly consumed = new Set<string>();

  constructor(private readonly raw: Record<string, string>) {}

  /** Parses the declared parameters, throwing the upstream error for the first bad one. */
  parse<S extends Record<string, ParamSpec<any>>>(spec: S): Values<S> {
    const out: Record<string, unknown> = {};
    for (const [name, decl] of Object.entries(spec)) out[name] = this.parseOne(name, decl);
    return out as Values<S>;
  }

  /** Request keys no declaration read, sorted (for ignored_parameters_unsupported). */
  ignored(): string[] {
    return Object.keys(this.raw)
      .filter((k) => !this.consumed.has(k))
      .sort();
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.raw, name);
  }

  private parseOne(name: string, decl: ParamSpec<unknown>): unknown {
    const present = [name, ...decl.aliases].filter((n) => this.has(n));
    present.forEach((n) => this.consumed.add(n));
    if (present.length > 1) throw new ApiError(MESSAGES.confusing(present[0], present[1]), { code: ErrorCode.REQUEST_CONFUSING_VAR });
    const key = present[0];
    if (key === undefined) {
      if (decl.required) throw new MissingArgumentError(name);
      return decl.defaultValue;
    }
    const text = this.raw[key];
    if (decl.kind === 'raw') return decl.validate ? decl.validate(text, key) : text;
    let decoded: unknown;
    try {
      decoded = JSON.parse(text);
    } catch {
      throw new BadRequestError(MESSAGES.jsonInvalid(key));
    }
    if (decoded === null && !decl.required) return decl.defaultValue;
    return decl.validate ? decl.validate(decoded, key) : decoded;
  }
}
