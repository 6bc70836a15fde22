// Linkifier patterns are written in the syntax upstream compiles with RE2 (Python-style named
// groups `(?P<name>…)`). We check them with JavaScript's RegExp after translating that syntax,
// refuse what RE2 refuses and JavaScript would accept (lookaround, backreferences), and word the
// common errors the way RE2 does ("missing ): (foo", "bad repetition operator: ????").

export type CompiledPattern = { regex: RegExp; groupNames: string[] };

export class BadPatternError extends Error {
  constructor(readonly detail: string) {
    super(`Bad regular expression: ${detail}`);
    this.name = 'BadPatternError';
  }
}

/** Walks a pattern outside character classes, calling `visit(index)` at each unescaped position. */
const scan = (pattern: string, visit: (i: number) => void): void => {
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // A ']' right after '[' or '[^' is a literal in both syntaxes.
      if (pattern[i + 1] === '^') i += 1;
      if (pattern[i + 1] === ']') i += 1;
      continue;
    }
    visit(i);
  }
};

/** RE2 refuses these, where JavaScript would accept them. */
const checkRe2Only = (pattern: string): void => {
  scan(pattern, (i) => {
    for (const op of ['(?=', '(?!', '(?<=', '(?<!', '(?P=']) {
      if (pattern.startsWith(op, i)) throw new BadPatternError(`invalid perl operator: ${op === '(?P=' ? '(?P=' : op.slice(0, 3)}`);
    }
  });
  const backreference = /\\([1-9]|k<)/.exec(pattern);
  if (backreference && pattern[backreference.index - 1] !== '\\')
    throw new BadPatternError(`invalid escape sequence: \\${backreference[1].replace('k<', 'k')}`);
};

/** Python/RE2 syntax to JavaScript: named groups, \A and \z anchors, leading inline flags. */
const translate = (pattern: string): { source: string; flags: string } => {
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline && !inline[1].includes('U')) {
    flags = [...new Set(inline[1].replace('m', 'm').split(''))].join('');
    source = source.slice(inline[0].length);
  }
  let out = '';
  let last = 0;
  scan(source, (i) => {
    if (source.startsWith('(?P<', i)) {
      out += `${source.slice(last, i)}(?<`;
      last = i + 4;
    }
  });
  out += source.slice(last);
  out = out.replace(/(^|[^\\])\\A/g, '$1^').replace(/(^|[^\\])\\z/g, '$1$(?![\\s\\S])');
  return { source: out, flags };
};

const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})/;

const GROUP_OPENING = /^\((?:\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|[:=!]|<[=!]|[a-zA-Z]*:))?/;

/** RE2's wording for a misplaced repetition operator: the first quantifier with nothing to repeat, or a run of them. */
const repetitionError = (pattern: string): string | undefined => {
  let canRepeat = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    if (c === '\\') {
      canRepeat = true;
      i += 2;
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      canRepeat = true;
      i = j + 1;
    } else if (c === '(') {
      i += GROUP_OPENING.exec(pattern.slice(i))![0].length;
      canRepeat = false;
    } else if (c === '|') {
      canRepeat = false;
      i += 1;
    } else {
      const q = QUANTIFIER.exec(pattern.slice(i));
      if (!q) {
        canRepeat = true;
        i += 1;
        continue;
      }
      if (!canRepeat) return `missing argument to repetition operator: ${q[0]}`;
      let run = q[0];
      let rest = pattern.slice(i + run.length);
      // One '?' right after a quantifier makes it non-greedy; any further quantifier repeats a repetition.
      if (rest.startsWith('?')) {
        run += '?';
        rest = rest.slice(1);
      }
      let next = QUANTIFIER.exec(rest);
      if (next) {
        while (next) {
          run += next[0];
          rest = rest.slice(next[0].length);
          next = QUANTIFIER.exec(rest);
        }
        return `bad repetition operator: ${run}`;
      }
      i += run.length;
      canRepeat = false;
    }
  }
  return undefined;
};

const describe = (pattern: string, message: string): string => {
  // V8 compiles lazily: a pattern over its size limit parses, then fails on first use. RE2 has a
  // size limit too, and says so in these words.
  if (/too large/i.test(message)) return 'pattern too large - compile failed';
  if (/stack overflow|Maximum call stack/i.test(message)) return 'expression nests too deeply';
  if (/Unterminated group/i.test(message)) return `missing ): ${pattern}`;
  if (/Unmatched '\)'/i.test(message)) return `unexpected ): ${pattern}`;
  if (/Unterminated character class/i.test(message)) return `missing ]: ${pattern.slice(pattern.lastIndexOf('['))}`;
  if (/Nothing to repeat/i.test(message)) return repetitionError(pattern) ?? 'bad repetition operator';
  if (/Range out of order in character class/i.test(message)) return 'invalid character class range';
  if (/numbers out of order/i.test(message)) return 'bad repetition operator';
  if (/Duplicate capture group name/i.test(message)) return 'duplicate capture group name';
  if (/Invalid capture group name/i.test(message)) return 'invalid named capture group';
  const stripped = message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  return stripped.charAt(0).toLowerCase() + stripped.slice(1);
};

/** Compiles a linkifier pattern, or throws BadPatternError with an RE2-style description. */
export const compilePattern = (pattern: string): CompiledPattern => {
  checkRe2Only(pattern);
  const { source, flags } = translate(pattern);
  try {
    const regex = new RegExp(source, flags);
    // Matching the empty string through an added alternative lists every named group; it is also
    // the first use, where V8 compiles (and may refuse) the expression.
    const groups = new RegExp(`${source}|`, flags).exec('')?.groups ?? {};
    regex.test('');
    return { regex, groupNames: Object.keys(groups) };
  } catch (error) {
    // Every failure of the compiler, whatever its kind, is the client's bad pattern.
    throw new BadPatternError(describe(pattern, error instanceof Error ? error.message : String(error)));
  }
};
