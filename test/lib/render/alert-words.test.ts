import { usersAlertedBy } from '../../../lib/render/alert-words';

const alerted = (content: string, words: string[]) => usersAlertedBy(content, new Map([[1, words]])).has(1);

describe('usersAlertedBy (upstream alert-word matching)', () => {
  it.each([
    ['a word alone', 'ghost', ['ghost'], true],
    ['any case', 'The GHOST walks', ['Ghost'], true],
    ['a phrase', 'where is the ghost of hamlet?', ['ghost of Hamlet'], true],
    ['inside another word', 'a ghostly figure', ['ghost'], false],
    ['at the end of another word', 'the unghost came', ['ghost'], false],
    ['in parentheses', 'we saw (ghost) there', ['ghost'], true],
    ['before a question mark', 'a ghost?', ['ghost'], true],
    ['before a closing quote "', 'say "ghost" twice', ['ghost'], false],
    ['after an opening quote ", before a comma', 'say "ghost, now', ['ghost'], true],
    ['before a hyphen', 'ghost-like shapes', ['ghost'], false],
    ['in bold', 'a **ghost** here', ['ghost'], true],
    ['after a quote marker', '> ghost', ['ghost'], true],
    ['starting at the second character, whatever the first', 'xghost', ['ghost'], true],
    ['inside a fenced code block', 'look:\n```\nghost\n```\nthere', ['ghost'], false],
    ['inside a quote fence', '```quote\nghost\n```', ['ghost'], true],
    ['after a match that does not count', 'ghostly ghost', ['ghost'], true],
  ])('%s', (_case, content, words, expected) => {
    expect(alerted(content, words)).toBe(expected);
  });

  it('finds each user whose word occurs, and only them', () => {
    const words = new Map([
      [1, ['ghost']],
      [2, ['castle']],
      [3, ['moat', 'Ghost']],
    ]);
    expect([...usersAlertedBy('The ghost left.', words)].sort()).toEqual([1, 3]);
  });
});
