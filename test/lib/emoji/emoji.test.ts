import { checkEmojiRequest, emojiCodeOf, emojiNameToCode, unicodeEmojiCode, unicodeEmojiNames } from '../../../lib/emoji';

const rejects = (fn: () => unknown, msg: string) =>
  expect(fn).toThrow(expect.objectContaining({ message: msg, statusCode: 400, code: 'BAD_REQUEST' }));

describe('the emoji module', () => {
  it('derives codes as upstream: variation selectors removed, lower-case hex', () => {
    expect(emojiCodeOf('2764-FE0F')).toBe('2764');
    expect(emojiCodeOf('0023-FE0F-20E3')).toBe('0023-20e3');
    expect(emojiCodeOf('1F468-200D-1F469-200D-1F467')).toBe('1f468-200d-1f469-200d-1f467');
  });

  it('maps names to codes and codes to names, canonical first', () => {
    expect(unicodeEmojiCode('+1')).toBe('1f44d');
    expect(unicodeEmojiCode('thumbsup')).toBe('1f44d');
    expect(unicodeEmojiNames('1f44d')).toEqual(['+1', 'thumbsup']);
    expect(unicodeEmojiCode('heart')).toBe('2764');
    expect(unicodeEmojiCode('octopus')).toBe('1f419');
  });

  it('knows no skin-tone variation as an emoji of its own', () => {
    expect(unicodeEmojiNames('1f44d-1f3fb')).toBeUndefined();
  });

  it('finds the code and type of a name, and refuses an unknown one', () => {
    expect(emojiNameToCode('octopus')).toEqual({ code: '1f419', type: 'unicode_emoji' });
    expect(emojiNameToCode('zulip')).toEqual({ code: 'zulip', type: 'zulip_extra_emoji' });
    rejects(() => emojiNameToCode('no_such_emoji'), "Emoji 'no_such_emoji' does not exist");
  });

  it('accepts a matching name, code and type', () => {
    expect(() => checkEmojiRequest('octopus', '1f419', 'unicode_emoji')).not.toThrow();
    expect(() => checkEmojiRequest('zulip', 'zulip', 'zulip_extra_emoji')).not.toThrow();
  });

  it.each([
    ['octopus', 'ffff', 'unicode_emoji', 'Invalid emoji code.'],
    ['+1', '1f419', 'unicode_emoji', 'Invalid emoji name.'],
    ['zulip', 'other', 'zulip_extra_emoji', 'Invalid emoji code.'],
    ['octopus', 'zulip', 'zulip_extra_emoji', 'Invalid emoji name.'],
    ['party', '1', 'realm_emoji', 'Invalid custom emoji.'],
    ['octopus', '1f419', 'bogus', 'Invalid emoji type.'],
  ])('refuses %s / %s / %s with "%s"', (name, code, type, msg) => {
    rejects(() => checkEmojiRequest(name, code, type), msg);
  });
});
