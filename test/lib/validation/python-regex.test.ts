import { BadPatternError, compilePattern } from '../../../lib/validation/python-regex';

const errorOf = (pattern: string): string => {
  try {
    compilePattern(pattern);
  } catch (error) {
    if (error instanceof BadPatternError) return error.message;
    throw error;
  }
  return 'compiled';
};

describe('linkifier pattern compilation', () => {
  it('translates Python named groups and lists their names', () => {
    const { regex, groupNames } = compilePattern('zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})');
    expect(groupNames).toEqual(['repo', 'id']);
    expect(regex.exec('see zulip-mobile#1234')?.groups).toEqual({ repo: 'mobile', id: '1234' });
  });

  it('keeps (?P< inside a character class as literal text', () => {
    expect(compilePattern('[(?P<x>]+').groupNames).toEqual([]);
  });

  it('applies leading inline flags', () => {
    expect(compilePattern('(?i)abc-(?P<id>\\d+)').regex.test('ABC-1')).toBe(true);
  });

  it.each([
    ['(foo', 'Bad regular expression: missing ): (foo'],
    ['ZUL-(?P<id>\\d????)', 'Bad regular expression: bad repetition operator: ????'],
    ['a**', 'Bad regular expression: bad repetition operator: **'],
    ['*abc', 'Bad regular expression: missing argument to repetition operator: *'],
    ['a)', 'Bad regular expression: unexpected ): a)'],
    ['[abc', 'Bad regular expression: missing ]: [abc'],
    ['foo(?=bar)', 'Bad regular expression: invalid perl operator: (?='],
    ['(?<!x)y', 'Bad regular expression: invalid perl operator: (?<'],
    ['(a)\\1', 'Bad regular expression: invalid escape sequence: \\1'],
    ['(?P<id>a)(?P<id>b)', 'Bad regular expression: duplicate capture group name'],
  ])('refuses %j with an RE2-style message', (pattern, message) => {
    expect(errorOf(pattern)).toBe(message);
  });

  it.each(['#D(?P<id>[0-9]{2,8})', 'a??', 'x{', '\\\\1', '[?*+]', 'PR (?P<id>[0-9]+)'])('accepts %j', (pattern) => {
    expect(errorOf(pattern)).toBe('compiled');
  });
});
