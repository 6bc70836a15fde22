// Unicode emoji names and codes, from the `emoji-datasource` package (iamcal's emoji-data, the
// data set upstream's own emoji data is built from). Upstream's rules (tools/setup/emoji/):
// - an emoji's code is its `unified` code points with every U+FE0F variation selector removed,
//   each code point in lower-case hex of at least 4 digits, joined by `-` (`2764-fe0f` → `2764`);
// - only emoji with an image in both the Google and the Twitter sets are offered;
// - skin-tone variations are not separate emoji;
// - each code has one canonical name, then aliases; a name names one code.
// Deliberate difference: upstream takes names from its own curated list (tools/setup/emoji/
// emoji_names.py: `thumbs_up` with aliases `like` and `+1`, `smile` for 1f642); this service
// uses the data set's short names as they are (`+1` and `thumbsup` for 1f44d, `smile` for 1f604),
// the first short name being canonical. Clients that show names from our emoji data file
// (server_emoji_data_url) or from register are consistent with it.
import emojiData from 'emoji-datasource/emoji.json';
import { BadRequestError } from '../errors';

type EmojiEntry = { unified: string; short_names: string[]; has_img_google: boolean; has_img_twitter: boolean };

/** The emoji code of a data set entry, as upstream's get_emoji_code derives it. */
export const emojiCodeOf = (unified: string): string =>
  unified
    .split('-')
    .filter((cp) => cp.toUpperCase() !== 'FE0F')
    .map((cp) => cp.toLowerCase().padStart(4, '0'))
    .join('-');

type Tables = { codeToNames: Map<string, string[]>; nameToCode: Map<string, string> };
let tables: Tables | undefined;

const build = (): Tables => {
  const codeToNames = new Map<string, string[]>();
  const nameToCode = new Map<string, string>();
  for (const entry of emojiData as EmojiEntry[]) {
    if (!entry.has_img_google || !entry.has_img_twitter) continue;
    const code = emojiCodeOf(entry.unified);
    const names = codeToNames.get(code) ?? [];
    for (const name of entry.short_names) {
      if (nameToCode.has(name)) continue;
      nameToCode.set(name, code);
      names.push(name);
    }
    if (names.length > 0) codeToNames.set(code, names);
  }
  return { codeToNames, nameToCode };
};

const data = (): Tables => (tables ??= build());

/** The code a Unicode emoji name stands for (undefined: no such emoji). */
export const unicodeEmojiCode = (name: string): string | undefined => data().nameToCode.get(name);

/** The names of a Unicode emoji code, canonical first (undefined: no such emoji). */
export const unicodeEmojiNames = (code: string): readonly string[] | undefined => data().codeToNames.get(code);

/** The emoji data file for clients (server_emoji_data_url): `{"code_to_names": {code: [names]}}`. */
export const emojiApiData = (): { code_to_names: Record<string, string[]> } => ({
  code_to_names: Object.fromEntries(data().codeToNames),
});

/** Upstream's only "Zulip extra emoji" (reaction_type zulip_extra_emoji). */
const ZULIP_EXTRA_EMOJI = ['zulip'] as const;

/**
 * The code and type of an emoji named without a code (upstream's emoji_name_to_emoji_code):
 * a Unicode emoji, else Zulip's extra emoji; this service has no custom emoji yet.
 */
export const emojiNameToCode = (name: string): { code: string; type: 'unicode_emoji' | 'zulip_extra_emoji' } => {
  const code = unicodeEmojiCode(name);
  if (code !== undefined) return { code, type: 'unicode_emoji' };
  if ((ZULIP_EXTRA_EMOJI as readonly string[]).includes(name)) return { code: name, type: 'zulip_extra_emoji' };
  throw new BadRequestError(`Emoji '${name}' does not exist`);
};

/**
 * Checks that a name, code and type name one emoji (upstream's check_emoji_request), with
 * upstream's messages. Custom emoji (`realm_emoji`) do not exist in this service yet, so every
 * code of that type is "Invalid custom emoji.".
 */
export const checkEmojiRequest = (name: string, code: string, type: string): void => {
  if (type === 'realm_emoji') throw new BadRequestError('Invalid custom emoji.');
  if (type === 'zulip_extra_emoji') {
    if (!(ZULIP_EXTRA_EMOJI as readonly string[]).includes(code)) throw new BadRequestError('Invalid emoji code.');
    if (name !== code) throw new BadRequestError('Invalid emoji name.');
    return;
  }
  if (type === 'unicode_emoji') {
    if (unicodeEmojiNames(code) === undefined) throw new BadRequestError('Invalid emoji code.');
    if (unicodeEmojiCode(name) !== code) throw new BadRequestError('Invalid emoji name.');
    return;
  }
  throw new BadRequestError('Invalid emoji type.');
};
