// RFC 6570 URI template syntax (levels 1-4), as upstream's validator (Python's uri_template)
// applies it to linkifier URL templates:
//   template   = *( literals / expression )
//   expression = "{" [ operator ] variable-list "}"
//   operator   = "+" / "#" / "." / "/" / ";" / "?" / "&"   ("=" "," "!" "@" "|" are reserved: invalid)
//   varspec    = varname [ ":" max-length (1-9999) / "*" ]
//   varname    = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
// Literals may be anything but braces, controls, space and  " < > \ ^ ` |  ("%" is accepted
// unencoded, as upstream's validator accepts "https://example.com/%%").

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
const VARNAME = new RegExp(`^${VARCHAR}+(?:\\.${VARCHAR}+)*$`);
const MAX_LENGTH = /^[1-9][0-9]{0,3}$/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_LITERAL = /[\u0000-\u0020\u007f"<>\\^`|]/;

export type ParsedTemplate = { variables: string[] };

const parseVarspec = (spec: string): string | null => {
  let name = spec;
  if (spec.endsWith('*')) name = spec.slice(0, -1);
  else if (spec.includes(':')) {
    const colon = spec.indexOf(':');
    if (!MAX_LENGTH.test(spec.slice(colon + 1))) return null;
    name = spec.slice(0, colon);
  }
  return VARNAME.test(name) ? name : null;
};

const parseExpression = (body: string): string[] | null => {
  let rest = body;
  if (rest.length > 0 && RESERVED_OPERATORS.has(rest[0])) return null;
  if (rest.length > 0 && OPERATORS.has(rest[0])) rest = rest.slice(1);
  const names: string[] = [];
  for (const spec of rest.split(',')) {
    const name = parseVarspec(spec);
    if (name === null) return null;
    names.push(name);
  }
  return names;
};

/** The template's variable names (each once, in order of appearance), or null if it is not a valid template. */
export const parseUriTemplate = (template: string): ParsedTemplate | null => {
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '{') {
      const end = template.indexOf('}', i + 1);
      if (end < 0) return null;
      const body = template.slice(i + 1, end);
      if (body.includes('{')) return null;
      const names = parseExpression(body);
      if (names === null) return null;
      names.forEach((n) => variables.includes(n) || variables.push(n));
      i = end + 1;
    } else {
      if (c === '}' || FORBIDDEN_LITERAL.test(c)) return null;
      i += 1;
    }
  }
  return { variables };
};

export const isValidUriTemplate = (template: string): boolean => parseUriTemplate(template) !== null;

// Expansion (RFC 6570 §3.2) for string values, as linkifier URLs need it: each operator's prefix,
// separator, named form and set of characters left unencoded.
type OperatorRule = { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean };
const OPERATOR_RULES: Record<string, OperatorRule> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

const encodeUtf8 = (c: string): string =>
  [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Unreserved characters stay; with `reserved`, reserved characters and pct-encoded triplets stay too. */
const encodeValue = (value: string, reserved: boolean): string => {
  let out = '';
  for (let i = 0; i < value.length;) {
    const c = String.fromCodePoint(value.codePointAt(i)!);
    if (/[A-Za-z0-9\-._~]/.test(c)) out += c;
    else if (reserved && /[:/?#[\]@!$&'()*+,;=]/.test(c)) out += c;
    else if (reserved && c === '%' && /^%[0-9A-Fa-f]{2}/.test(value.slice(i))) out += c;
    else out += encodeUtf8(c);
    i += c.length;
  }
  return out;
};

/** The template expanded with string values; a variable without a value is left out, as RFC 6570 says. */
export const expandUriTemplate = (template: string, values: Record<string, string | undefined>): string =>
  template.replace(/\{([^{}]*)\}/g, (_m, body: string) => {
    const op = body.length > 0 && OPERATORS.has(body[0]) ? body[0] : '';
    const rule = OPERATOR_RULES[op];
    const specs = body.slice(op.length).split(',');
    const parts: string[] = [];
    for (const spec of specs) {
      const [name, maxLength] = spec.replace(/\*$/, '').split(':');
      const raw = values[name];
      if (raw === undefined) continue;
      const value = encodeValue(maxLength ? [...raw].slice(0, Number(maxLength)).join('') : raw, rule.reserved);
      parts.push(rule.named ? (value === '' ? `${name}${rule.ifEmpty}` : `${name}=${value}`) : value);
    }
    return parts.length === 0 ? '' : rule.first + parts.join(rule.sep);
  });
