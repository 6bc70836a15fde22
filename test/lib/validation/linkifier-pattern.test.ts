import { BadPatternError, checkPattern, linkifierRegex } from '../../../lib/validation/linkifier-pattern';

const errorOf = (pattern: string): string => {
  try {
    checkPattern(pattern);
  } catch (error) {
    if (error instanceof BadPatternError) return error.message;
    throw error;
  }
  return 'compiled';
};

const matchesIn = (pattern: string, text: string) => linkifierRegex(pattern)!.matchAll(text);

describe('checkPattern', () => {
  it('lists the named groups of both RE2 spellings, (?P<name>…) and (?<name>…)', () => {
    expect(checkPattern('zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?<id>[0-9]{2,8})').groupNames).toEqual(['repo', 'id']);
  });

  it('accepts a name used twice, as RE2 does, and reports the leftmost group under it', () => {
    expect(checkPattern('(?P<id>a)(?P<id>b)').groupNames).toEqual(['id']);
    expect(matchesIn('(?P<id>a)-(?P<id>b)', 'a-b')).toEqual([{ index: 0, text: 'a-b', groups: { id: 'a' } }]);
    expect(matchesIn('(?P<id>a)|[(?P<id>]|\\Q(?P<id>\\E|(?P<id>b)', 'b')).toEqual([{ index: 0, text: 'b', groups: {} }]);
  });

  it('keeps (?P< inside a character class as literal text', () => {
    expect(checkPattern('[(?P<x>]+').groupNames).toEqual([]);
  });

  // The messages are RE2's own (checked against the RE2 library), after upstream's "Bad regular
  // expression: ". For (?<!, RE2 since it learned (?<name>…) reads a named group without its '>'.
  it.each([
    ['(foo', 'Bad regular expression: missing ): (foo'],
    ['ZUL-(?P<id>\\d????)', 'Bad regular expression: bad repetition operator: ????'],
    ['a**', 'Bad regular expression: bad repetition operator: **'],
    ['x{2}{3}', 'Bad regular expression: bad repetition operator: {2}{3}'],
    ['*abc', 'Bad regular expression: no argument for repetition operator: *'],
    ['a)', 'Bad regular expression: unexpected ): a)'],
    ['[abc', 'Bad regular expression: missing ]: [abc'],
    ['[z-a]', 'Bad regular expression: invalid character class range: z-a'],
    ['a{1001}', 'Bad regular expression: invalid repetition size: {1001}'],
    ['(a{100}){100}', 'Bad regular expression: invalid repetition size: {100}'],
    ['foo(?=bar)', 'Bad regular expression: invalid perl operator: (?='],
    ['foo(?!bar)', 'Bad regular expression: invalid perl operator: (?!'],
    ['(?P=id)', 'Bad regular expression: invalid perl operator: (?P'],
    ['(?x)a', 'Bad regular expression: invalid perl operator: (?x'],
    ['(?<!x)y', 'Bad regular expression: invalid named capture group: (?<!x)y'],
    ['(?P<a b>x)', 'Bad regular expression: invalid named capture group: (?P<a b>'],
    ['(a)\\1', 'Bad regular expression: invalid escape sequence: \\1'],
    ['\\k<id>', 'Bad regular expression: invalid escape sequence: \\k'],
    ['a\\Z', 'Bad regular expression: invalid escape sequence: \\Z'],
    ['a\\', 'Bad regular expression: trailing \\'],
  ])('refuses %j with RE2’s message', (pattern, message) => {
    expect(errorOf(pattern)).toBe(message);
  });

  it.each([
    '#D(?P<id>[0-9]{2,8})',
    'a??',
    'x{',
    '\\\\1',
    '[?*+]',
    'PR (?P<id>[0-9]+)',
    '\\Aab\\z',
    '(?i)x(?-i)y',
    '\\pL+',
    '(?P<x>(a+)+b)',
  ])('accepts %j', (pattern) => {
    expect(errorOf(pattern)).toBe('compiled');
  });

  it('refuses a program larger than its bound with RE2’s "pattern too large - compile failed"', () => {
    expect(errorOf('a'.repeat(20_000))).toBe('Bad regular expression: pattern too large - compile failed');
  });
});

describe('linkifierRegex', () => {
  it('matches with RE2 semantics: inline flags, \\A and \\z, named groups', () => {
    expect(matchesIn('(?i)abc-(?P<id>\\d+)', 'see ABC-1')).toEqual([{ index: 4, text: 'ABC-1', groups: { id: '1' } }]);
    expect(matchesIn('\\Aab\\z', 'ab')).toEqual([{ index: 0, text: 'ab', groups: {} }]);
  });

  it('links only after the start, whitespace or one of \'"(,:< and not before a letter or digit, as upstream', () => {
    expect(matchesIn('#(?P<id>[0-9]+)', '#1 (#2) x#3 #4é #5_ :#6').map((m) => m.text)).toEqual(['#1', '#2', '#5', '#6']);
  });

  it('keeps the boundaries after a \\Q quotation that runs to the end of the pattern', () => {
    expect(matchesIn('\\Qa.b', 'a.b axb a.bc').map((m) => m.text)).toEqual(['a.b']);
  });

  it('lets the character after one match start the next', () => {
    expect(matchesIn('#(?P<id>[0-9]+)', '#1 #2').map((m) => m.index)).toEqual([0, 3]);
  });

  it('gives UTF-16 positions, as the rest of the renderer uses', () => {
    expect(matchesIn('#(?P<id>[0-9]+)', '😀 #12')).toEqual([{ index: 3, text: '#12', groups: { id: '12' } }]);
  });

  it('runs a pattern that backtracking engines take exponential time on over 10,000 characters', () => {
    const pattern = '(?P<x>(a+)+b)';
    expect(matchesIn(pattern, 'a'.repeat(10_000))).toEqual([]);
    expect(matchesIn(pattern, `${'a'.repeat(10_000)}b`)).toEqual([
      { index: 0, text: `${'a'.repeat(10_000)}b`, groups: { x: `${'a'.repeat(10_000)}b` } },
    ]);
  });

  it('is undefined for a stored pattern RE2 refuses', () => {
    expect(linkifierRegex('(?=x)')).toBeUndefined();
  });
});
