// Upstream's emoji names for the compose box's `:` typeahead: the server's own table
// (lib/emoji/emoji-names.json, through the `emoji-names` path of webapp/tsconfig.json, so there is
// one table), loaded in a chunk of its own the first time one types `:`, not with the app.
export type EmojiName = { name: string; glyph?: string };

let names: Promise<EmojiName[]> | undefined;

const glyphOf = (code: string): string => String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));

export const loadEmojiNames = (): Promise<EmojiName[]> =>
  (names ??= import('emoji-names').then((table) =>
    Object.entries(table.default as Record<string, string[]>).flatMap(([code, aliases]) =>
      aliases.map((name) => ({ name, glyph: glyphOf(code) })),
    ),
  ));
