// Linkifier patterns, compiled and run with RE2 semantics (re2js), as upstream compiles them with
// RE2: matching takes time linear in the text, so no pattern an administrator saves can make a
// message take exponential time to render. Every linkifier regex is compiled here, for validation
// (zerver/models/linkifiers.py, filter_pattern_validator) and for rendering (prepare_linkifier_pattern
// in zerver/lib/markdown). What remains to do by hand is where re2js differs from the RE2 upstream
// runs: its error texts (Go's wording, put back in RE2's), a group name used twice (RE2 allows it)
// and a bound on program size.
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

export class BadPatternError extends Error {
  constructor(readonly detail: string) {
    super(`Bad regular expression: ${detail}`);
    this.name = 'BadPatternError';
  }
}

// re2js words its errors as Go's regexp/syntax does; RE2 (which upstream quotes after "Bad
// regular expression: ") has its own text for each. The argument after ": " is the same in both.
const RE2_WORDING: Record<string, string> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'invalid nested repetition operator': 'bad repetition operator',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'trailing backslash at end of expression': 'trailing \\',
  'invalid named capture': 'invalid named capture group',
  'expression too large': 'pattern too large - compile failed',
};

// RE2 refuses a program over its memory budget ("pattern too large - compile failed"). re2js has
// no such bound, and the cost of a match grows with the program's size, so we keep one, far above
// any real linkifier (a 1,000-character literal is about 1,000 instructions).
const MAX_PROGRAM_SIZE = 10_000;

/** The end of the character class opening at `i` (RE2's rules: a ']' first is a literal; [:name:] inside). */
const classEnd = (pattern: string, i: number): number => {
  let j = i + 1;
  if (pattern[j] === '^') j += 1;
  if (pattern[j] === ']') j += 1;
  while (j < pattern.length && pattern[j] !== ']') {
    const posixEnd = pattern.startsWith('[:', j) ? pattern.indexOf(':]', j + 2) : -1;
    if (posixEnd >= 0) j = posixEnd + 2;
    else j += pattern[j] === '\\' ? 2 : 1;
  }
  return j + 1;
};

/**
 * Calls `visit` at each position of a pattern that is outside escapes, character classes and
 * \Q…\E quotations; says whether a quotation is left open at the end (RE2 allows that).
 */
const walk = (pattern: string, visit: (i: number) => void): { openQuote: boolean } => {
  for (let i = 0; i < pattern.length;) {
    if (pattern.startsWith('\\Q', i)) {
      const end = pattern.indexOf('\\E', i + 2);
      if (end < 0) return { openQuote: true };
      i = end + 2;
    } else if (pattern[i] === '\\') i += 2;
    else if (pattern[i] === '[') i = classEnd(pattern, i);
    else {
      visit(i);
      i += 1;
    }
  }
  return { openQuote: false };
};

const NAMED_GROUP = /\(\?P?<(\w+)>/y;

/**
 * RE2 allows a group name twice and reports the leftmost group under it; re2js refuses the
 * pattern. Later groups of a name become plain groups, which keeps every group's number.
 */
const unnameDuplicates = (pattern: string): string => {
  const seen = new Set<string>();
  let out = '';
  let last = 0;
  walk(pattern, (i) => {
    NAMED_GROUP.lastIndex = i;
    const m = NAMED_GROUP.exec(pattern);
    if (!m) return;
    if (seen.has(m[1])) {
      out += `${pattern.slice(last, i)}(`;
      last = i + m[0].length;
    }
    seen.add(m[1]);
  });
  return out + pattern.slice(last);
};

/** re2js's exception as RE2's description: "missing ): (foo", "bad repetition operator: ????". */
const describe = (error: RE2JSSyntaxException): string => {
  const code = RE2_WORDING[error.error] ?? error.error;
  return error.input ? `${code}: ${error.input}` : code;
};

const compile = (source: string): RE2JS => {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    // Whatever else the compiler refuses is still the administrator's pattern, not a server error.
    if (!(error instanceof RE2JSSyntaxException)) throw error instanceof RE2JSException ? new BadPatternError(error.message) : error;
    if (error.error === 'duplicate capture group name') {
      const unnamed = unnameDuplicates(source);
      if (unnamed !== source) return compile(unnamed);
    }
    throw new BadPatternError(describe(error));
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) throw new BadPatternError('pattern too large - compile failed');
  return re;
};

/**
 * Upstream's prepare_linkifier_pattern: a match starts at the start of the text, after whitespace
 * (RE2's ASCII \s, NEL and the Unicode separators) or after one of '"(,:<, and is not followed by a
 * letter or digit. The before and after groups consume a character each; only group 2 is linked.
 * A quotation left open would swallow the after-boundary: it is closed first.
 */
const prepare = (pattern: string): string =>
  `(^|\\s|\\x{85}|\\pZ|['"(,:<])(${pattern}${walk(pattern, () => {}).openQuote ? '\\E' : ''})($|[^\\pL\\pN])`;

/** One linkifier match: the linked text, where it starts, and the pattern's named groups that took part. */
export type LinkifierMatch = { index: number; text: string; groups: Record<string, string> };

/** A linkifier pattern ready to run over text. */
export type LinkifierRegex = { matchAll: (text: string) => LinkifierMatch[] };

const toLinkifierRegex = (re: RE2JS): LinkifierRegex => ({
  matchAll: (text) => {
    const found: LinkifierMatch[] = [];
    const matcher = re.matcher(text);
    // As upstream's topic_links, the next search starts where the linked text ended, so the
    // character after one match can precede the next.
    for (let pos = 0; pos <= text.length && matcher.find(pos);) {
      const start = matcher.start(2);
      const end = matcher.end(2);
      if (end > start) {
        const groups: Record<string, string> = {};
        for (const [name, value] of Object.entries(matcher.getNamedGroups())) if (value !== null) groups[name] = value;
        found.push({ index: start, text: text.slice(start, end), groups });
      }
      pos = Math.max(end, pos + 1);
    }
    return found;
  },
});

type Compiled = { regex: LinkifierRegex; groupNames: string[] };

// Rendering compiles the organization's linkifiers for every message; a warm function keeps them.
// Refused patterns are not kept: they come from requests, not from the stored list.
const CACHE_SIZE = 256;
const cache = new Map<string, Compiled>();

const compileLinkifier = (pattern: string): Compiled | BadPatternError => {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let result: Compiled;
  try {
    // The pattern alone first, so that an error quotes what the administrator wrote; then inside
    // the boundaries, which may still cross a limit (nesting depth, program size).
    const groupNames = Object.keys(compile(pattern).namedGroups());
    result = { regex: toLinkifierRegex(compile(prepare(pattern))), groupNames };
  } catch (error) {
    if (error instanceof BadPatternError) return error;
    throw error;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, result);
  return result;
};

/**
 * Validates a linkifier pattern as upstream's filter_pattern_validator and returns its named
 * groups, or throws BadPatternError with RE2's description ("Bad regular expression: missing ): (foo").
 */
export const checkPattern = (pattern: string): { groupNames: string[] } => {
  const compiled = compileLinkifier(pattern);
  if (compiled instanceof BadPatternError) throw compiled;
  return { groupNames: compiled.groupNames };
};

/** A stored linkifier's pattern ready to match, or undefined for one RE2 refuses (it links nothing, as upstream). */
export const linkifierRegex = (pattern: string): LinkifierRegex | undefined => {
  const compiled = compileLinkifier(pattern);
  return compiled instanceof BadPatternError ? undefined : compiled.regex;
};
