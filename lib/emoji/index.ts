// Unicode emoji: upstream's names over the Unicode data, the one place for both.
// - Names are upstream's own curated table (emoji-names.json, see emoji-names.NOTICE): for each
//   emoji code its canonical name, then aliases (`1f44d`: `+1`, `thumbs_up`, `like`; `1f642`:
//   `smile`). An emoji the table does not name is not offered, as upstream leaves those out.
// - A code is the emoji's code points with every U+FE0F variation selector removed, each in
//   lower-case hex of at least 4 digits, joined by `-` (`2764-fe0f` → `2764`), as upstream's
//   get_emoji_code derives it.
// - Which character sequences in a text are emoji (for rendering) comes from the `emoji-datasource`
//   package's Unicode data: its fully-qualified sequences, skin-tone variations included, and its
//   ZWJ sequences without their variation selectors, the set upstream's own Unicode emoji regex
//   matches. A sequence whose code the table does not name
//   (a skin-tone variation, a family) stays text, whole.
// A name that two codes carry would name the code it is the canonical name of (upstream's table
// has no such name since it gave each name one code; the rule stays for a table that has).
import emojiData from 'emoji-datasource/emoji.json';
import { BadRequestError } from '../errors';
import emojiNames from './emoji-names.json';

type EmojiEntry = { unified: string; non_qualified?: string | null; skin_variations?: Record<string, { unified: string }> };

/** The emoji code of a sequence of code points written as hex (`2764-FE0F`), as upstream's get_emoji_code. */
export const emojiCodeOf = (unified: string): string =>
  unified
    .split('-')
    .filter((cp) => cp.toUpperCase() !== 'FE0F')
    .map((cp) => cp.toLowerCase().padStart(4, '0'))
    .join('-');

type Tables = {
  codeToNames: Map<string, readonly string[]>;
  nameToCode: Map<string, string>;
  /** The emoji sequences of the Unicode data by their first code point, longest first. */
  sequencesByFirst: Map<number, string[]>;
};
let tables: Tables | undefined;

const textOf = (unified: string): string => String.fromCodePoint(...unified.split('-').map((cp) => parseInt(cp, 16)));

const build = (): Tables => {
  const codeToNames = new Map<string, readonly string[]>(Object.entries(emojiNames as Record<string, string[]>));
  const nameToCode = new Map<string, string>();
  for (const [code, names] of codeToNames) names.slice(1).forEach((alias) => nameToCode.set(alias, code));
  for (const [code, names] of codeToNames) nameToCode.set(names[0], code);
  const sequencesByFirst = new Map<number, string[]>();
  const add = (unified: string) => {
    const text = textOf(unified);
    const first = text.codePointAt(0)!;
    const list = sequencesByFirst.get(first) ?? [];
    list.push(text);
    sequencesByFirst.set(first, list);
  };
  for (const entry of emojiData as EmojiEntry[]) {
    add(entry.unified);
    // A ZWJ sequence written without its variation selectors (👁‍🗨) is the same emoji, as
    // upstream's regex matches it; a single character without one (❤) stays text.
    if (entry.non_qualified && entry.non_qualified.includes('-200D-')) add(entry.non_qualified);
    Object.values(entry.skin_variations ?? {}).forEach((v) => add(v.unified));
  }
  for (const list of sequencesByFirst.values()) list.sort((a, b) => b.length - a.length);
  return { codeToNames, nameToCode, sequencesByFirst };
};

const data = (): Tables => (tables ??= build());

/** The code a Unicode emoji name stands for (undefined: no such emoji). */
export const unicodeEmojiCode = (name: string): string | undefined => data().nameToCode.get(name);

/** The names of a Unicode emoji code, canonical first (undefined: no such emoji). */
export const unicodeEmojiNames = (code: string): readonly string[] | undefined => data().codeToNames.get(code);

/** The emoji data file for clients (server_emoji_data_url): `{"code_to_names": {code: [names]}}`. */
export const emojiApiData = (): { code_to_names: Record<string, readonly string[]> } => ({
  code_to_names: Object.fromEntries(data().codeToNames),
});

const ZWJ_TAIL = /^(?:\u200d\p{Extended_Pictographic}[\p{Emoji_Modifier}\ufe0f]*)+/u;

/** A Unicode emoji found in a text: where it is, the characters, and its code if upstream names it. */
export type EmojiInText = { index: number; text: string; code: string | undefined };

/**
 * The Unicode emoji sequences in a text, left to right, each the longest the Unicode data knows
 * at its place; `code` is set only for an emoji upstream's table names.
 */
export const unicodeEmojiIn = (text: string): EmojiInText[] => {
  const { sequencesByFirst, codeToNames } = data();
  const found: EmojiInText[] = [];
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const seq = sequencesByFirst.get(cp)?.find((s) => text.startsWith(s, i));
    if (seq === undefined) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    // A sequence joined on by U+200D to more emoji is one emoji the data does not know (🍋‍🟪):
    // upstream leaves the whole run as text, not its first part as an emoji.
    const joined = ZWJ_TAIL.exec(text.slice(i + seq.length))?.[0] ?? '';
    const code = emojiCodeOf([...seq].map((c) => c.codePointAt(0)!.toString(16)).join('-'));
    found.push({ index: i, text: seq + joined, code: joined === '' && codeToNames.has(code) ? code : undefined });
    i += seq.length + joined.length;
  }
  return found;
};

/**
 * Upstream's emoticons and the emoji names they become, for senders whose `translate_emoticons`
 * setting is on (data from upstream's EMOTICON_CONVERSIONS).
 */
export const EMOTICON_CONVERSIONS: ReadonlyMap<string, string> = new Map([
  [':)', 'smile'],
  ['(:', 'smile'],
  [':(', 'frown'],
  ['<3', 'heart'],
  [':|', 'neutral'],
  [':/', 'confused'],
  [';)', 'wink'],
  [':D', 'grinning'],
  [':o', 'open_mouth'],
  [':O', 'open_mouth'],
  [':p', 'stuck_out_tongue'],
  [':P', 'stuck_out_tongue'],
]);

/** Upstream's only "Zulip extra emoji" (reaction_type zulip_extra_emoji). */
const ZULIP_EXTRA_EMOJI = ['zulip'] as const;

/** Whether a name is one of Zulip's extra emoji (`zulip`). */
export const isZulipExtraEmoji = (name: string): boolean => (ZULIP_EXTRA_EMOJI as readonly string[]).includes(name);

/** A custom emoji of the organization as the lookups below need it (lib/models/realm-emoji.ts has the whole). */
export type CustomEmoji = { id: number; name: string; deactivated: boolean };

/**
 * The code and type of an emoji named without a code (upstream's get_emoji_data): the
 * organization's active custom emoji of that name (its id), else a Unicode emoji, else Zulip's
 * extra emoji.
 */
export const emojiNameToCode = (
  name: string,
  customEmoji: readonly CustomEmoji[],
): { code: string; type: 'realm_emoji' | 'unicode_emoji' | 'zulip_extra_emoji' } => {
  const custom = customEmoji.find((e) => !e.deactivated && e.name === name);
  if (custom !== undefined) return { code: String(custom.id), type: 'realm_emoji' };
  if (isZulipExtraEmoji(name)) return { code: name, type: 'zulip_extra_emoji' };
  const code = unicodeEmojiCode(name);
  if (code !== undefined) return { code, type: 'unicode_emoji' };
  throw new BadRequestError(`Emoji '${name}' does not exist`);
};

/**
 * Checks that a name, code and type name one emoji (upstream's check_emoji_request), with
 * upstream's messages: a custom emoji's code is the id of one of the organization's emoji
 * ("Invalid custom emoji."), named so ("Invalid custom emoji name."), and not deactivated ("This
 * custom emoji has been deactivated."); for a Unicode emoji the code must be one upstream names
 * and the name must stand for that code.
 */
export const checkEmojiRequest = (name: string, code: string, type: string, customEmoji: readonly CustomEmoji[]): void => {
  if (type === 'realm_emoji') {
    const custom = customEmoji.find((e) => String(e.id) === code);
    if (custom === undefined) throw new BadRequestError('Invalid custom emoji.');
    if (custom.name !== name) throw new BadRequestError('Invalid custom emoji name.');
    if (custom.deactivated) throw new BadRequestError('This custom emoji has been deactivated.');
    return;
  }
  if (type === 'zulip_extra_emoji') {
    if (!isZulipExtraEmoji(code)) throw new BadRequestError('Invalid emoji code.');
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
