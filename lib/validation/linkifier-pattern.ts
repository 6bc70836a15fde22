// Linkifier patterns, compiled and run with RE2 semantics (re2js), as upstream compiles them with
// RE2: matching takes time linear in the text, so no pattern an administrator saves can make a
// message take exponential time to render. Every linkifier regex is compiled here, for validation
// (zerver/models/linkifiers.py, filter_pattern_validator) and for rendering (prepare_linkifier_pattern
// in zerver/lib/markdown). What remains to do by hand is what re2js does differently from the RE2
// upstream runs: its error texts (Go's wording, put back in RE2's) and a bound on program size.
import { RE2JS, RE2JSSyntaxException } from 're2js';

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

/** re2js's exception as RE2's description: "missing ): (foo", "bad repetition operator: ????". */
const describe = (error: RE2JSSyntaxException): string => {
  const code = RE2_WORDING[error.error] ?? error.error;
  // Upstream's RE2 allows a name twice (the leftmost group wins); re2js refuses it, and so do we.
  if (error.error === 'duplicate capture group name') return code;
  return error.input ? `${code}: ${error.input}` : code;
};

const compile = (source: string): RE2JS => {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) throw new BadPatternError(describe(error));
    throw error;
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) throw new BadPatternError('pattern too large - compile failed');
  return re;
};

/**
 * A pattern RE2 compiled, with a final \Q…\E closed: RE2 lets a quotation run to the end of the
 * pattern, which would swallow what prepare() puts after it.
 */
const closeQuote = (pattern: string): string => {
  for (let i = 0; i < pattern.length; i += pattern[i] === '\\' ? 2 : 1) {
    if (pattern.startsWith('\\Q', i)) {
      const end = pattern.indexOf('\\E', i + 2);
      if (end < 0) return `${pattern}\\E`;
      i = end;
    }
  }
  return pattern;
};

/**
 * Upstream's prepare_linkifier_pattern: a match starts at the start of the text, after whitespace
 * (RE2's ASCII \s, NEL and the Unicode separators) or after one of '"(,:<, and is not followed by a
 * letter or digit. The before and after groups consume a character each; only group 2 is linked.
 */
const prepare = (pattern: string): string => `(^|\\s|\\x{85}|\\pZ|['"(,:<])(${closeQuote(pattern)})($|[^\\pL\\pN])`;

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
