// Emoji as reactions name them: a Unicode emoji by its code (code points in hex, `-`-joined) and
// upstream's names, a custom emoji by its id in the organization. The picker's search over both.
import type { RealmEmoji } from '../api/types';

export type EmojiChoice = { name: string; code: string; type: 'unicode_emoji' | 'realm_emoji'; url?: string };

/** A Unicode emoji's character from its code ("1f44d", "1f468-200d-1f4bb"). */
export const emojiChar = (code: string): string => String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));

/** The organization's custom emoji not deactivated: what the picker and compose's typeahead offer. */
export const activeRealmEmoji = (realmEmoji: Readonly<Record<string, RealmEmoji>>): RealmEmoji[] =>
  Object.values(realmEmoji).filter((e) => !e.deactivated);

/** Upstream's popular emoji, first in the picker: +1, tada, smile, heart, working_on_it, octopus. */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];

/**
 * The emoji whose names start with the query (then those containing it), custom ones first; with
 * no query the popular ones, then the organization's, then the rest in upstream's order.
 */
export const searchEmoji = (
  query: string,
  unicodeNames: Readonly<Record<string, readonly string[]>>,
  realmEmoji: Readonly<Record<string, RealmEmoji>>,
  limit: number,
): EmojiChoice[] => {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/ /g, '_');
  const custom: EmojiChoice[] = activeRealmEmoji(realmEmoji).map((e) => ({
    name: e.name,
    code: e.id,
    type: 'realm_emoji',
    url: e.source_url,
  }));
  const unicode: (EmojiChoice & { names: readonly string[] })[] = Object.entries(unicodeNames).map(([code, names]) => ({
    name: names[0]!,
    code,
    type: 'unicode_emoji',
    names,
  }));
  if (q === '') {
    const popular = POPULAR.filter((code) => unicodeNames[code]).map((code) => unicode.find((e) => e.code === code)!);
    const rest = unicode.filter((e) => !POPULAR.includes(e.code));
    return [...popular, ...custom, ...rest].slice(0, limit).map(({ name, code, type, url }) => ({ name, code, type, url }));
  }
  const rank = (names: readonly string[]): number =>
    names.some((n) => n.startsWith(q))
      ? 0
      : names.some((n) => n.split('_').some((w) => w.startsWith(q)))
        ? 1
        : names.some((n) => n.includes(q))
          ? 2
          : 3;
  const ranked = [...custom.map((e) => ({ e, r: rank([e.name]) })), ...unicode.map((e) => ({ e, r: rank(e.names) }))]
    .filter(({ r }) => r < 3)
    .sort((a, b) => a.r - b.r);
  return ranked.slice(0, limit).map(({ e: { name, code, type, url } }) => ({ name, code, type, url }));
};
