import { checkEmojiRequest, emojiCodeOf, emojiNameToCode, unicodeEmojiCode, unicodeEmojiIn, unicodeEmojiNames } from '../../../lib/emoji';

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
    expect(unicodeEmojiCode('thumbs_up')).toBe('1f44d');
    expect(unicodeEmojiNames('1f44d')).toEqual(['+1', 'thumbs_up', 'like']);
    expect(unicodeEmojiCode('heart')).toBe('2764');
    expect(unicodeEmojiCode('octopus')).toBe('1f419');
  });

  it.each([
    ['thumbs_up', '1f44d'],
    ['like', '1f44d'],
    ['smile', '1f642'],
    ['big_smile', '1f604'],
    ['slight_smile', undefined],
    ['heart', '2764'],
    ['love', '2764'],
    ['octopus', '1f419'],
    ['tada', '1f389'],
    ['working_on_it', '1f6e0'],
    ['check', '2705'],
    ['hash', '0023-20e3'],
  ])("uses upstream's names and aliases: %s is %s", (name, code) => {
    expect(unicodeEmojiCode(name)).toBe(code);
  });

  it.each(['thumbsup', 'smiley_cat_face', 'slightly_smiling_face', 'pout', 'heavy_check_mark'])(
    "knows no name outside upstream's table: %s",
    (name) => {
      expect(unicodeEmojiCode(name)).toBeUndefined();
    },
  );

  it('leaves out emoji that upstream does not name', () => {
    expect(unicodeEmojiNames('1fae9')).toBeUndefined(); // face with bags under eyes (Emoji 16)
    expect(unicodeEmojiNames('1f9d1-200d-1f9d1-200d-1f9d2')).toBeUndefined(); // family: adult, adult, child (Emoji 15.1)
  });

  it("gives each name one code, as upstream's newer table does (secret is no longer an alias of 3299)", () => {
    expect(unicodeEmojiNames('1f5dd')![0]).toBe('secret');
    expect(unicodeEmojiNames('3299')).toEqual(['japanese_secret_button']);
    expect(unicodeEmojiCode('secret')).toBe('1f5dd');
  });

  it("names ZWJ sequences, flags and the newer emoji of upstream's table", () => {
    expect(unicodeEmojiCode('woman_shrugging')).toBe('1f937-200d-2640');
    expect(unicodeEmojiCode('eye_in_speech_bubble')).toBe('1f441-200d-1f5e8');
    expect(unicodeEmojiCode('family_man_woman_girl')).toBe('1f468-200d-1f469-200d-1f467');
    expect(unicodeEmojiCode('flag_united_states')).toBe('1f1fa-1f1f8');
    expect(unicodeEmojiNames('1f970')).toEqual(['smiling_face_with_hearts', 'adore', 'crush']);
  });

  it('keeps answering to the names of the previous table, some now for the emoji upstream moved them to', () => {
    expect(unicodeEmojiCode('cricket_bat')).toBe('1f3cf'); // dropped upstream; kept so old reactions still resolve
    expect(unicodeEmojiCode('cricket_game')).toBe('1f3cf');
    expect(unicodeEmojiCode('cricket')).toBe('1f997');
    expect(unicodeEmojiCode('beetle')).toBe('1fab2');
    expect(unicodeEmojiCode('kiss')).toBe('1f48f');
  });

  it('finds Unicode emoji in text, each the longest sequence, with the code only where upstream names it', () => {
    expect(unicodeEmojiIn('a 💩 ❤️ ❤ 👍🏽 👨‍👩‍👧 #️⃣ # ↔ ↔️ 👁‍🗨 🫩')).toEqual([
      { index: 2, text: '💩', code: '1f4a9' },
      { index: 5, text: '❤️', code: '2764' },
      { index: 10, text: '👍🏽', code: undefined },
      { index: 15, text: '👨‍👩‍👧', code: '1f468-200d-1f469-200d-1f467' },
      { index: 24, text: '#️⃣', code: '0023-20e3' },
      { index: 32, text: '↔️', code: '2194' },
      // A ZWJ sequence without its variation selectors is the emoji all the same.
      { index: 35, text: '👁‍🗨', code: '1f441-200d-1f5e8' },
      { index: 41, text: '🫩', code: undefined },
    ]);
  });

  it('knows no skin-tone variation as an emoji of its own', () => {
    expect(unicodeEmojiNames('1f44d-1f3fb')).toBeUndefined();
  });

  it('finds the code and type of a name, and refuses an unknown one', () => {
    expect(emojiNameToCode('octopus', [])).toEqual({ code: '1f419', type: 'unicode_emoji' });
    expect(emojiNameToCode('zulip', [])).toEqual({ code: 'zulip', type: 'zulip_extra_emoji' });
    rejects(() => emojiNameToCode('no_such_emoji', []), "Emoji 'no_such_emoji' does not exist");
  });

  it("finds an active custom emoji's id first, even over a Unicode emoji's name, and never a deactivated one", () => {
    const custom = [
      { id: 5, name: 'octopus', deactivated: false },
      { id: 6, name: 'party', deactivated: true },
    ];
    expect(emojiNameToCode('octopus', custom)).toEqual({ code: '5', type: 'realm_emoji' });
    rejects(() => emojiNameToCode('party', custom), "Emoji 'party' does not exist");
  });

  it('accepts an active custom emoji by id and name', () => {
    expect(() => checkEmojiRequest('party', '7', 'realm_emoji', [{ id: 7, name: 'party', deactivated: false }])).not.toThrow();
  });

  it('accepts a matching name, code and type', () => {
    expect(() => checkEmojiRequest('octopus', '1f419', 'unicode_emoji', [])).not.toThrow();
    expect(() => checkEmojiRequest('thumbs_up', '1f44d', 'unicode_emoji', [])).not.toThrow();
    expect(() => checkEmojiRequest('smile', '1f642', 'unicode_emoji', [])).not.toThrow();
    expect(() => checkEmojiRequest('zulip', 'zulip', 'zulip_extra_emoji', [])).not.toThrow();
  });

  it.each([
    ['octopus', 'ffff', 'unicode_emoji', 'Invalid emoji code.'],
    ['+1', '1f419', 'unicode_emoji', 'Invalid emoji name.'],
    ['thumbsup', '1f44d', 'unicode_emoji', 'Invalid emoji name.'],
    ['octopus', '1fae9', 'unicode_emoji', 'Invalid emoji code.'],
    ['zulip', 'other', 'zulip_extra_emoji', 'Invalid emoji code.'],
    ['octopus', 'zulip', 'zulip_extra_emoji', 'Invalid emoji name.'],
    ['party', '1', 'realm_emoji', 'Invalid custom emoji.'],
    ['fiesta', '7', 'realm_emoji', 'Invalid custom emoji name.'],
    ['gone', '8', 'realm_emoji', 'This custom emoji has been deactivated.'],
    ['octopus', '1f419', 'bogus', 'Invalid emoji type.'],
  ])('refuses %s / %s / %s with "%s"', (name, code, type, msg) => {
    const custom = [
      { id: 7, name: 'party', deactivated: false },
      { id: 8, name: 'gone', deactivated: true },
    ];
    rejects(() => checkEmojiRequest(name, code, type, custom), msg);
  });
});
