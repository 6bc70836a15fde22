// Code highlighting as upstream shows it: Pygments' token spans (`<span class="k">def</span>`) with
// Pygments' short class names, and Pygments' name of the language (`py2` → "Python 2.x").
// - Which languages there are, and their names, is Pygments' own list (pygments-lexers.json, see
//   pygments-lexers.NOTICE): a language Pygments does not know keeps its name as written and gets
//   no spans, as upstream.
// - The tokens come from Shiki's TextMate grammars (`@shikijs/langs`) run by its JavaScript regex
//   engine (`@shikijs/engine-javascript`: no WebAssembly), loaded only when a code block needs
//   them: the engine at the first highlighted block, each grammar at its language's first block.
//   That first block costs some 0.2 to 0.6 s (the grammar's patterns are converted to JavaScript
//   as they are first used), once per execution environment and language. (Shiki's precompiled
//   grammars would save that, but at 4.4.3 they lose Python's string contents.) GRAMMARS says
//   which grammar stands for which Pygments language; a Pygments language without one renders as
//   before, escaped without spans. C++'s grammar is left out: its first line takes over a second.
// - A token's class comes from its TextMate scopes by scope family (`keyword.operator` → `o`,
//   `entity.name.function` → `nf`, ...: classOf below), never from its words. Code outside every
//   scope is a name (`n`) where it is an identifier in a programming language (a `source.` grammar),
//   plain text otherwise, as Pygments lexes it.
// - Every character is escaped as blocks.ts escapes code (escapeCode); nothing of the library's
//   HTML is used. Bounds: a block past MAX_HIGHLIGHT_CHARS, or a line past MAX_HIGHLIGHT_LINE,
//   stays plain (a message has at most 10,000 characters, so only hostile input reaches them).
//   The engine's own time limit per line is not used: it cuts a line short on a cold start, when
//   the grammar's patterns are first compiled, so the same code would render two ways.
import pygmentsLexers from './pygments-lexers.json';

/** Code as Pygments prints it: &, <, >, " and ' escaped. */
export const escapeCode = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const LEXERS = pygmentsLexers as Record<string, string>;

/** Pygments' name of the language a code block names (`py2` → "Python 2.x"), undefined when Pygments knows no such language. */
export const pygmentsLanguageName = (alias: string): string | undefined =>
  Object.hasOwn(LEXERS, alias.toLowerCase()) ? LEXERS[alias.toLowerCase()] : undefined;

/** The most characters of code a block may have and still be highlighted. */
export const MAX_HIGHLIGHT_CHARS = 20_000;
/** The longest line that is highlighted; a longer one stays plain. */
const MAX_HIGHLIGHT_LINE = 2_000;
/**
 * The deepest the grammar's state may nest (constructs opened and not yet closed: strings in
 * interpolations in strings...). Each line's work grows with the depth, so code that only opens
 * (`$(${"` repeated in Bash, `f"{` in Python) would take seconds; past this depth the block stays
 * plain. Real code nests a few levels.
 */
const MAX_STATE_DEPTH = 32;

type Grammar = { name: string; scopeName: string; embeddedLangs?: string[] } & Record<string, unknown>;
type GrammarModule = { default: Grammar[] };

/* eslint-disable @typescript-eslint/no-require-imports -- loaded at a language's first code block, not at cold start */
/**
 * The Shiki grammar of each Pygments language (by Pygments' name) that gets spans. TeX takes
 * Shiki's LaTeX grammar, which includes its TeX one: Pygments' TeX lexer is the one for LaTeX too.
 */
const GRAMMARS: Record<string, () => GrammarModule> = {
  Python: () => require('@shikijs/langs/python'),
  'Python 2.x': () => require('@shikijs/langs/python'),
  JavaScript: () => require('@shikijs/langs/javascript'),
  TypeScript: () => require('@shikijs/langs/typescript'),
  Java: () => require('@shikijs/langs/java'),
  C: () => require('@shikijs/langs/c'),
  'C#': () => require('@shikijs/langs/csharp'),
  Go: () => require('@shikijs/langs/go'),
  Rust: () => require('@shikijs/langs/rust'),
  Kotlin: () => require('@shikijs/langs/kotlin'),
  Haskell: () => require('@shikijs/langs/haskell'),
  Lua: () => require('@shikijs/langs/lua'),
  Bash: () => require('@shikijs/langs/shellscript'),
  SQL: () => require('@shikijs/langs/sql'),
  JSON: () => require('@shikijs/langs/json'),
  YAML: () => require('@shikijs/langs/yaml'),
  TOML: () => require('@shikijs/langs/toml'),
  INI: () => require('@shikijs/langs/ini'),
  HTML: () => require('@shikijs/langs/html'),
  CSS: () => require('@shikijs/langs/css'),
  Markdown: () => require('@shikijs/langs/markdown'),
  Diff: () => require('@shikijs/langs/diff'),
  TeX: () => require('@shikijs/langs/latex'),
};

type Token = { startIndex: number; endIndex: number; scopes: string[] };
type State = { depth: number };
type LoadedGrammar = { tokenizeLine: (line: string, state: State | null, timeLimit?: number) => { tokens: Token[]; ruleStack: State } };
type Primitive = { loadLanguageSync: (...langs: Grammar[][]) => void; getLanguage: (name: string) => LoadedGrammar };

let primitive: Primitive | undefined;
const engine = (): Primitive => {
  if (primitive === undefined) {
    const { createShikiPrimitive } = require('@shikijs/primitive') as { createShikiPrimitive: (options: object) => Primitive };
    const { createJavaScriptRegexEngine } = require('@shikijs/engine-javascript') as { createJavaScriptRegexEngine: () => unknown };
    primitive = createShikiPrimitive({ engine: createJavaScriptRegexEngine(), langs: [], warnings: false });
  }
  return primitive;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const loaded = new Map<string, LoadedGrammar>();
const grammarOf = (language: string): LoadedGrammar | undefined => {
  if (!Object.hasOwn(GRAMMARS, language)) return undefined;
  const load = GRAMMARS[language];
  let grammar = loaded.get(language);
  if (grammar === undefined) {
    const grammars = load().default;
    engine().loadLanguageSync(grammars);
    grammar = engine().getLanguage(grammars[grammars.length - 1].name);
    loaded.set(language, grammar);
  }
  return grammar;
};

/** Pygments' TeX lexer's token types, where they differ from other languages': commands are keywords, braces builtins. */
const LANGUAGE_CLASSES: Record<string, [string, string][]> = {
  TeX: [
    ['support.function', 'k'],
    ['punctuation', 'nb'],
    ['markup', ''],
  ],
};

/** Scope families to Pygments classes, most specific first; the first family a scope is in names its class. */
const SCOPE_CLASSES: [string, string][] = [
  ['invalid', 'err'],
  ['constant.language', 'kc'],
  ['constant.character.escape', 'se'],
  ['constant', 'no'],
  ['keyword.control.import', 'kn'],
  ['keyword', 'k'],
  ['storage.type.function', 'k'],
  ['storage.type.class', 'k'],
  ['storage.modifier', 'k'],
  ['storage.type', 'kt'],
  ['entity.name.function', 'nf'],
  ['entity.name.type.class', 'nc'],
  ['entity.name.class', 'nc'],
  ['entity.name.type', 'nc'],
  ['entity.name.namespace', 'nn'],
  ['entity.name.tag', 'nt'],
  ['entity.name.label', 'nl'],
  ['entity.other.attribute-name', 'na'],
  ['entity', 'n'],
  ['support.type.exception', 'ne'],
  ['support', 'nb'],
  ['variable.language', 'bp'],
  ['variable', 'n'],
  ['markup.heading', 'gh'],
  ['markup.bold', 'gs'],
  ['markup.italic', 'ge'],
  ['markup.inserted', 'gi'],
  ['markup.deleted', 'gd'],
  ['markup', ''],
  ['punctuation', 'p'],
];

const inFamily = (scope: string, family: string): boolean => scope === family || scope.startsWith(`${family}.`);
const has = (scopes: string[], family: string): boolean => scopes.some((s) => inFamily(s, family));

/** A number's class by the kind its scope names (`constant.numeric.hex` → `mh`). */
const numberClass = (scopes: string[], text: string): string => {
  const scope = scopes.find((s) => inFamily(s, 'constant.numeric'))!;
  if (/\.hex\b/.test(scope)) return 'mh';
  if (/\.oct(al)?\b/.test(scope)) return 'mo';
  if (/\.bin(ary)?\b/.test(scope)) return 'mb';
  if (/\.float\b/.test(scope) || /[.eE]/.test(text)) return 'mf';
  return /^\d[\d_]*$/.test(text) || /\.(dec|decimal|integer)\b/.test(scope) ? 'mi' : 'm';
};

/** The state that carries from token to token: the quote the open string began with. */
type LineState = { quote: string };

/** A string token's class: escapes, interpolations, docstrings, prefixes, else by the opening quote. */
const stringClass = (scopes: string[], text: string, state: LineState): string => {
  if (scopes.some((s) => /^punctuation\.definition\.string\.begin/.test(s))) state.quote = text.slice(-1);
  const quote = state.quote;
  if (scopes.some((s) => /^punctuation\.definition\.string\.end/.test(s))) state.quote = '';
  if (has(scopes, 'constant.character.escape')) return 'se';
  if (has(scopes, 'meta.interpolation') || has(scopes, 'constant.character.format')) return 'si';
  if (has(scopes, 'storage.type.string')) return 'sa';
  if (has(scopes, 'string.regexp')) return 'sr';
  if (scopes.some((s) => /^string\.quoted\.docstring/.test(s))) return 'sd';
  return quote === '"' ? 's2' : quote === "'" ? 's1' : quote === '`' ? 'sb' : 's';
};

/**
 * The class of a token (`''`: none). Comments, strings and numbers are whole by their outer scope
 * (their quotes and `#` are punctuation inside them); otherwise the innermost scope that names a
 * class does, a `punctuation.definition` part of a token taking the class of what it is part of.
 */
const classOf = (scopes: string[], text: string, language: string, state: LineState, hashbang: boolean): string | undefined => {
  if (has(scopes, 'comment')) {
    if (hashbang) return 'ch';
    return has(scopes, 'comment.line') ? 'c1' : has(scopes, 'comment.block') ? 'cm' : 'c';
  }
  if (has(scopes, 'string') && !has(scopes, 'meta.embedded')) return stringClass(scopes, text, state);
  // Spaces between tokens are plain text, as Pygments prints them.
  if (/^\s+$/.test(text)) return '';
  if (has(scopes, 'constant.numeric')) return numberClass(scopes, text);
  // A decorator's name is one token, `.` and all; its arguments are code.
  if (has(scopes, 'entity.name.function.decorator')) return 'nd';
  if (
    has(scopes, 'meta.function.decorator') &&
    !has(scopes, 'meta.function-call.arguments') &&
    !has(scopes, 'punctuation.definition.arguments')
  )
    return 'nd';
  const own = LANGUAGE_CLASSES[language] ?? [];
  for (let i = scopes.length - 1; i >= 1; i -= 1) {
    const scope = scopes[i];
    if (inFamily(scope, 'meta.brace')) return 'p';
    if (inFamily(scope, 'meta')) continue;
    if (inFamily(scope, 'punctuation.definition') && scopes.slice(1, i).some((s) => !inFamily(s, 'meta'))) continue;
    if (scope.includes('.language.special.') || inFamily(scope, 'variable.language')) return 'bp';
    if (inFamily(scope, 'keyword.operator')) return /^[A-Za-z]+$/.test(text) ? 'ow' : 'o';
    const found = own.find(([family]) => inFamily(scope, family)) ?? SCOPE_CLASSES.find(([family]) => inFamily(scope, family));
    if (found) return found[1];
  }
  return undefined;
};

/** Spans of one line: each token's class, runs of one class merged, as Pygments' formatter prints them. */
const highlightLine = (line: string, tokens: Token[], language: string, state: LineState, firstLine: boolean): string => {
  const parts: [string, string][] = [];
  const push = (cls: string, text: string) => {
    const last = parts[parts.length - 1];
    if (last && last[0] === cls) last[1] += text;
    else parts.push([cls, text]);
  };
  const source = tokens[0]?.scopes[0]?.startsWith('source.') ?? false;
  // A comment that is the first line and starts with #! is a hashbang (Pygments' `ch`).
  const hashbang = firstLine && line.startsWith('#!');
  for (const token of tokens) {
    const text = line.slice(token.startIndex, token.endIndex);
    if (text === '') continue;
    const cls = classOf(token.scopes, text, language, state, hashbang);
    if (cls !== undefined) push(cls, text);
    else if (!source) push('', text);
    // Outside every scope, a programming language's identifiers are names and its brackets and
    // separators punctuation.
    else
      for (const piece of text.match(/[A-Za-z_]\w*|[()[\]{},;.]+|[^A-Za-z_()[\]{},;.]+/g) ?? [])
        push(/^[A-Za-z_]/.test(piece) ? 'n' : /^[()[\]{},;.]/.test(piece) ? 'p' : '', piece);
  }
  return parts.map(([cls, text]) => (cls === '' ? escapeCode(text) : `<span class="${cls}">${escapeCode(text)}</span>`)).join('');
};

/**
 * The code's HTML with Pygments' token spans for a language (Pygments' name) that has a grammar;
 * undefined when it has none, or the code is past the bounds, or the grammar fails.
 */
export const highlightCode = (code: string, language: string): string | undefined => {
  if (!Object.hasOwn(GRAMMARS, language) || code.length > MAX_HIGHLIGHT_CHARS) return undefined;
  try {
    const grammar = grammarOf(language)!;
    let stack: State | null = null;
    const state: LineState = { quote: '' };
    const lines: string[] = [];
    for (const [index, line] of code.split('\n').entries()) {
      if (line.length > MAX_HIGHLIGHT_LINE) {
        stack = null;
        lines.push(escapeCode(line));
        continue;
      }
      const result = grammar.tokenizeLine(line, stack, 0);
      stack = result.ruleStack;
      if (stack.depth > MAX_STATE_DEPTH) return undefined;
      lines.push(highlightLine(line, result.tokens, language, state, index === 0));
    }
    return lines.join('\n');
  } catch {
    return undefined;
  }
};
