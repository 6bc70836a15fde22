// Custom emoji (upstream's zerver/views/realm_emoji.py, zerver/actions/realm_emoji.py and
// zerver/lib/emoji.py): listing, uploading and deactivating an organization's emoji, serving their
// images, and the lookups reactions, statuses and rendering make by name or id. Every change is
// one transaction on the organization's emoji list, conditioned on the list version its checks
// read; when another change got in first, the checks run again on fresh data.
import { hasRealmPermission, RealmGroups } from '../../access/user-groups';
import { unicodeEmojiCode } from '../../emoji';
import { BadRequestError, ResourceNotFoundError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { UploadedFile } from '../../models/attachment';
import {
  activeEmojiNamed,
  checkImageFile,
  checkValidEmojiName,
  EMOJI_IMAGE_KEY,
  emojiImageKey,
  MAX_EMOJI_FILE_SIZE_MIB,
  newEmojiFileName,
  normalizeEmojiName,
  realmEmojiDict,
  toApiRealmEmoji,
  type RealmEmoji,
} from '../../models/realm-emoji';
import type { Realm } from '../../models/realm';
import { isAdmin, type User } from '../../models/user';
import { allocateIds } from '../../store/common';
import * as filesStore from '../../store/files';
import * as realmEmojiStore from '../../store/realm-emoji';
import { forMembers } from '../requiring';
import { retryLostRaces } from '../retry';

/** GET /realm/emoji and register's `realm_emoji`: every emoji of the organization, deactivated ones too, by id. */
export const listRealmEmoji = async (realmId: number, opts: { consistent?: boolean } = {}) =>
  realmEmojiDict(await realmEmojiStore.listRealmEmoji(realmId, opts));

/** The organization's emoji (deactivated ones too), for reactions and statuses: one Query. */
export const realmEmojiOf = (realmId: number): Promise<RealmEmoji[]> => realmEmojiStore.listRealmEmoji(realmId);

/** realmEmojiOf, read at the first call only: for a request that needs the emoji only on some paths. */
export const lazyRealmEmoji = (realmId: number): (() => Promise<RealmEmoji[]>) => {
  let read: Promise<RealmEmoji[]> | undefined;
  return () => (read ??= realmEmojiOf(realmId));
};

/**
 * Runs `attempt` on a fresh read of the list until its write is not overtaken by another change
 * (upstream serializes these writes, so every one of them succeeds there).
 */
const withRealmEmojiList = <T>(realmId: number, attempt: (list: realmEmojiStore.RealmEmojiList) => Promise<T>): Promise<T> =>
  retryLostRaces(
    async () => attempt(await realmEmojiStore.readRealmEmojiList(realmId, { consistent: true })),
    (error) => error instanceof realmEmojiStore.RealmEmojiChangedError,
  );

/** Upstream's notify_realm_emoji: every emoji to the organization, with the change itself for individual_emoji_changes queues. */
const notifyRealmEmoji = async (realmId: number, emoji: RealmEmoji[], changed: RealmEmoji, op: 'add' | 'update_one'): Promise<void> => {
  const change =
    op === 'add'
      ? { op, emoji: toApiRealmEmoji(changed) }
      : { op, emoji_id: String(changed.id), data: { deactivated: changed.deactivated } };
  await sendEvent(realmId, { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(emoji), change }, 'realm');
};

/**
 * POST /realm/emoji/{emoji_name} (upstream's upload_emoji and check_add_realm_emoji), for members
 * and administrators ("Not allowed for guest users"). Checks, in upstream's order: the name
 * (stripped, spaces as underscores; checkValidEmojiName's messages), the organization's
 * can_add_custom_emoji_group ("Insufficient permission"), no active emoji of that name ("A custom
 * emoji with this name already exists."), exactly one file ("You must upload exactly one
 * file."), a built-in emoji's name only for administrators ("Only administrators can override
 * default emoji."), the size ("Uploaded file is larger than the allowed limit of 5 MiB"), the
 * type the upload claims ("Invalid image format") and that its bytes are such an image ("Could
 * not decode image; did you upload an image file?"). Writes the image to S3 under a new random
 * name, then the emoji (conditioned on the list read, so a concurrent upload of the name makes
 * this one "already exists"; a crash between the two leaves an unreferenced image). Emits
 * `realm_emoji` to the organization.
 */
export const checkAddRealmEmoji = forMembers(async (user: User, realm: Realm, rawName: string, files: UploadedFile[]): Promise<void> => {
  const name = normalizeEmojiName(rawName);
  checkValidEmojiName(name);
  const groups = await RealmGroups.load(realm.id);
  if (!hasRealmPermission(realm, groups, user, 'can_add_custom_emoji_group')) throw new BadRequestError('Insufficient permission');
  const nameTaken = () => new BadRequestError('A custom emoji with this name already exists.');
  if (activeEmojiNamed(await realmEmojiStore.listRealmEmoji(realm.id, { consistent: true }), name)) throw nameTaken();
  if (files.length !== 1) throw new BadRequestError('You must upload exactly one file.');
  if (unicodeEmojiCode(name) !== undefined && !isAdmin(user)) throw new BadRequestError('Only administrators can override default emoji.');
  const contentType = checkImageFile(files[0], MAX_EMOJI_FILE_SIZE_MIB);

  const id = await allocateIds('realmEmoji');
  const fileName = newEmojiFileName(contentType);
  await filesStore.putFile(emojiImageKey(realm.id, fileName), files[0].content, contentType);
  const added: RealmEmoji = { id, realmId: realm.id, name, authorId: user.id, fileName, deactivated: false };
  const emoji = await withRealmEmojiList(realm.id, async ({ version, emoji: current }) => {
    if (activeEmojiNamed(current, name)) throw nameTaken();
    await realmEmojiStore.putRealmEmoji(added, version, { isNew: true });
    return [...current, added];
  });
  await notifyRealmEmoji(realm.id, emoji, added, 'add');
});

/**
 * DELETE /realm/emoji/{emoji_name} (upstream's delete_emoji, check_remove_custom_emoji and
 * do_remove_realm_emoji): the organization's active emoji of that name (else 404 "Emoji '{name}'
 * does not exist"), which administrators and its author may deactivate ("Must be an organization
 * administrator or emoji author"). Sets `deactivated` (the image and the item stay, as upstream
 * keeps them for old messages), conditioned on the list read, so of two concurrent deactivations
 * one gets the 404. Emits `realm_emoji` to the organization.
 */
export const checkRemoveRealmEmoji = async (user: User, name: string): Promise<void> => {
  const { emoji, changed } = await withRealmEmojiList(user.realmId, async ({ version, emoji: current }) => {
    const found = activeEmojiNamed(current, name);
    if (!found) throw new ResourceNotFoundError(`Emoji '${name}' does not exist`);
    if (!isAdmin(user) && found.authorId !== user.id) throw new BadRequestError('Must be an organization administrator or emoji author');
    const deactivated: RealmEmoji = { ...found, deactivated: true };
    await realmEmojiStore.putRealmEmoji(deactivated, version, { isNew: false });
    return { emoji: current.map((e) => (e.id === found.id ? deactivated : e)), changed: deactivated };
  });
  await notifyRealmEmoji(user.realmId, emoji, changed, 'update_one');
};

/**
 * GET /user_avatars/{realm_id}/emoji/images/{file}: an emoji's image and its type, without
 * authentication, as upstream serves them (their names are random). Only emoji image keys; anything
 * else, or a missing object, is 404 "File not found.".
 */
export const readEmojiImage = async (key: string): Promise<{ body: Buffer; contentType: string }> => {
  const file = EMOJI_IMAGE_KEY.test(key) ? await filesStore.getFileWithContentType(key) : undefined;
  if (!file) throw new ResourceNotFoundError('File not found.');
  return file;
};
