// Custom emoji (upstream's RealmEmoji, zerver/models/realm_emoji.py and zerver/lib/emoji.py): an
// organization's named images. Deactivating one keeps it (old messages, reactions and statuses
// still show it), so a name is unique only among the active emoji of an organization.
import { randomBytes } from 'node:crypto';
import { BadRequestError } from '../errors';
import type { UploadedFile } from './attachment';
import { imageTypeOf } from './avatar';

export type RealmEmoji = {
  /** Upstream's ids are global; ours too (one counter), so an id names one emoji of one organization. */
  id: number;
  realmId: number;
  name: string;
  /** Who uploaded it (null: unknown, as upstream's author for imported emoji). */
  authorId: number | null;
  /** The image's file name under `<realm id>/emoji/images/`. */
  fileName: string;
  deactivated: boolean;
};

/** Upstream's MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;
export const MAX_EMOJI_FILE_SIZE_BYTES = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;

/**
 * Upstream's check_valid_emoji_name on a name already normalized by the view (stripped, spaces as
 * underscores): lowercase letters, digits, dashes and underscores, ending with a letter or digit.
 */
export const checkValidEmojiName = (name: string): void => {
  if (name === '') throw new BadRequestError('Emoji name is missing');
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw new BadRequestError('Emoji names must end with either a letter or digit.');
    return;
  }
  throw new BadRequestError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
};

/** Python's str.isspace() for one character: JavaScript's \s without U+FEFF, plus U+001C to U+001F and U+0085. */
const isPythonSpace = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return (code >= 0x1c && code <= 0x1f) || code === 0x85 || (c !== '\ufeff' && /\s/.test(c));
};

/** Python's str.strip() (whitespace at both ends), then spaces as underscores, as upstream's upload_emoji. */
export const normalizeEmojiName = (name: string): string => {
  const chars = [...name];
  let [start, end] = [0, chars.length];
  while (start < end && isPythonSpace(chars[start])) start += 1;
  while (end > start && isPythonSpace(chars[end - 1])) end -= 1;
  return chars.slice(start, end).join('').replace(/ /g, '_');
};

/** The image types upstream accepts for emoji (THUMBNAIL_ACCEPT_IMAGE_TYPES that browsers show inline), by extension. */
const EMOJI_IMAGE_TYPES: ReadonlyMap<string, string> = new Map([
  ['image/avif', 'avif'],
  ['image/gif', 'gif'],
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

/** Extensions to types, for a part sent without a specific type (as Python's mimetypes guesses them). */
const TYPES_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['avif', 'image/avif'],
  ['gif', 'image/gif'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['webp', 'image/webp'],
  ['tif', 'image/tiff'],
  ['tiff', 'image/tiff'],
  ['bmp', 'image/bmp'],
  ['svg', 'image/svg+xml'],
]);

/** The type an upload claims: its part's type, or, when that says nothing (empty, octet-stream), its name's extension. */
const claimedImageType = (file: { filename: string; contentType: string }): string | undefined => {
  const declared = file.contentType.split(';')[0].trim().toLowerCase();
  if (declared !== '' && declared !== 'application/octet-stream') return declared;
  const extension = /\.([^.]+)$/.exec(file.filename)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : TYPES_BY_EXTENSION.get(extension);
};

/**
 * The checks upstream's emoji, icon and logo uploads share, in its order, once the one file is
 * picked: its size ("Uploaded file is larger than the allowed limit of {n} MiB"), the type it
 * claims ("Invalid image format": upstream's THUMBNAIL_ACCEPT_IMAGE_TYPES that browsers show
 * inline, EMOJI_IMAGE_TYPES) and that its bytes are such an image ("Could not decode image; did
 * you upload an image file?", imageTypeOf standing in for upstream's decoding). Returns the type
 * its bytes show, which the image is stored and served with.
 */
export const checkImageFile = (file: UploadedFile, maxSizeMib: number): string => {
  if (file.content.length > maxSizeMib * 1024 * 1024) {
    throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${maxSizeMib} MiB`);
  }
  const claimed = claimedImageType(file);
  if (claimed === undefined || !EMOJI_IMAGE_TYPES.has(claimed)) throw new BadRequestError('Invalid image format');
  const contentType = imageTypeOf(file.content);
  if (contentType === undefined) throw new BadRequestError('Could not decode image; did you upload an image file?');
  return contentType;
};

/**
 * A new image file name: 16 random hex digits and the type's extension (upstream salts a hash of
 * the id so that names cannot be enumerated; a random name is as unguessable, and new per upload).
 */
export const newEmojiFileName = (contentType: string): string => `${randomBytes(8).toString('hex')}.${EMOJI_IMAGE_TYPES.get(contentType)}`;

/** The S3 key of an emoji's image: `<realm id>/emoji/images/<file name>`, as upstream's upload backends lay it out. */
export const emojiImageKey = (realmId: number, fileName: string): string => `${realmId}/emoji/images/${fileName}`;

/** Only keys this service writes for emoji images are served as such. */
export const EMOJI_IMAGE_KEY = /^\d+\/emoji\/images\/[0-9a-f]{16}\.(avif|gif|jpg|png|webp)$/;

/** Where the image is served, relative to the organization's URL (upstream's local backend's get_emoji_url). */
export const emojiSourceUrl = (emoji: Pick<RealmEmoji, 'realmId' | 'fileName'>): string =>
  `/user_avatars/${emojiImageKey(emoji.realmId, emoji.fileName)}`;

/** The API's RealmEmoji object. No still image is made (nothing here decodes images), so still_url is null. */
export const toApiRealmEmoji = (emoji: RealmEmoji) => ({
  id: String(emoji.id),
  name: emoji.name,
  source_url: emojiSourceUrl(emoji),
  still_url: null,
  deactivated: emoji.deactivated,
  author_id: emoji.authorId,
});

export type ApiRealmEmoji = ReturnType<typeof toApiRealmEmoji>;

/** Upstream's get_all_custom_emoji_for_realm: every emoji of the organization, deactivated ones too, by id (as text). */
export const realmEmojiDict = (emoji: readonly RealmEmoji[]): Record<string, ApiRealmEmoji> =>
  Object.fromEntries([...emoji].sort((a, b) => a.id - b.id).map((e) => [String(e.id), toApiRealmEmoji(e)]));

/** The active emoji of a name (at most one: names are unique among active emoji). */
export const activeEmojiNamed = (emoji: readonly RealmEmoji[], name: string): RealmEmoji | undefined =>
  emoji.find((e) => !e.deactivated && e.name === name);
