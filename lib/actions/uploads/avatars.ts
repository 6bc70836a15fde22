// Avatars (upstream's zerver/views/user_settings.py set_avatar_backend / delete_avatar_backend,
// zerver/actions/user_settings.py do_change_avatar_fields and zerver/views/users.py avatar):
// uploading and removing one's own avatar, and where /avatar/{user} sends a client.
import { BadRequestError, ResourceNotFoundError, UnauthorizedError } from '../../errors';
import {
  AVATAR_SOURCE_GRAVATAR,
  AVATAR_SOURCE_UPLOADED,
  AVATAR_VERSION,
  avatarUrl,
  avatarVersionOf,
  gravatarUrl,
  imageTypeOf,
  INACCESSIBLE_USER_AVATAR_URL,
  MAX_AVATAR_FILE_SIZE_BYTES,
  MAX_AVATAR_FILE_SIZE_MIB,
  newAvatarPath,
  uploadedAvatarKey,
  type AvatarSource,
} from '../../models/avatar';
import type { UploadedFile } from '../../models/attachment';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { sendEvent } from '../../events/send';
import { canAccessUser, findUserByIdOrEmail, isUserIdText } from '../../access/users';
import * as filesStore from '../../store/files';
import * as usersStore from '../../store/users';

/** How many times a change is tried again after losing a race with another change of the same avatar. */
const MAX_AVATAR_ATTEMPTS = 3;

/**
 * Upstream's do_change_avatar_fields: sets the source (and, for an upload, the image's S3 key
 * base) and the next version, conditionally on the version it read (a concurrent change makes it
 * read the user again and take the version after), then sends the organization a `realm_user`
 * update with the new avatar fields. Returns the changed user.
 */
const changeAvatarFields = async (user: User, change: { avatarSource: AvatarSource; avatarPath?: string }): Promise<User> => {
  let current = user;
  for (let attempt = 1; ; attempt += 1) {
    const avatarVersion = avatarVersionOf(current) + 1;
    if (await usersStore.setAvatar(user.realmId, user.id, { ...change, avatarVersion }, avatarVersionOf(current))) {
      const changed: User = { ...current, ...change, avatarVersion };
      const person = {
        avatar_source: change.avatarSource,
        avatar_url: avatarUrl(changed),
        avatar_url_medium: avatarUrl(changed, { medium: true }),
        avatar_version: avatarVersion,
        user_id: user.id,
      };
      await sendEvent(user.realmId, { type: 'realm_user', op: 'update', person }, 'realm');
      return changed;
    }
    const reread = await usersStore.get(user.realmId, user.id);
    if (!reread || attempt >= MAX_AVATAR_ATTEMPTS) throw new Error(`avatar of user ${user.id} kept changing concurrently`);
    current = reread;
  }
};

/**
 * POST /users/me/avatar: exactly one file ("You must upload exactly one avatar."), at most
 * MAX_AVATAR_FILE_SIZE_MIB, a PNG, JPEG, GIF or WebP image ("Could not decode image; did you
 * upload an image file?"), stored with the type its bytes show. Writes the image to S3 under a
 * new random key base (the original as both the default and the medium size: no image library
 * here resizes it), then switches the user to it (a crash between the two leaves an unreferenced
 * object, never a reference to a missing one). Emits the `realm_user` update. Returns the new
 * avatar URL.
 */
export const checkUploadAvatar = async (user: User, files: UploadedFile[]): Promise<string> => {
  if (files.length !== 1) throw new BadRequestError('You must upload exactly one avatar.');
  const [file] = files;
  if (file.content.length > MAX_AVATAR_FILE_SIZE_BYTES) {
    throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  }
  const contentType = imageTypeOf(file.content);
  if (contentType === undefined) throw new BadRequestError('Could not decode image; did you upload an image file?');
  const avatarPath = newAvatarPath(user.realmId);
  for (const medium of [false, true]) await filesStore.putFile(uploadedAvatarKey(avatarPath, { medium }), file.content, contentType);
  return avatarUrl(await changeAvatarFields(user, { avatarSource: AVATAR_SOURCE_UPLOADED, avatarPath }));
};

/**
 * DELETE /users/me/avatar: back to the Gravatar (a new version, so clients drop the cached
 * image). Emits the `realm_user` update. Returns the Gravatar URL. The uploaded image is left in
 * the bucket (the functions may only read and write objects there, not delete them).
 */
export const deleteAvatar = async (user: User): Promise<string> =>
  avatarUrl(await changeAvatarFields(user, { avatarSource: AVATAR_SOURCE_GRAVATAR }));

const AVATAR_KEY = /^\d+\/[0-9a-f]{40}(-medium)?\.png$/;

/**
 * GET /user_avatars/{realm_id}/{file}: an uploaded avatar's bytes and type (or an organization's
 * icon or logo, stored the same way, lib/actions/organization/images.ts). Only avatar keys (a realm id
 * and one hashed name), so that no other upload of the bucket is readable this way;
 * anything else, or a missing object, is 404 "File not found.".
 */
export const readAvatarFile = async (key: string): Promise<{ body: Buffer; contentType: string }> => {
  const file = AVATAR_KEY.test(key) ? await filesStore.getFileWithContentType(key) : undefined;
  if (!file) throw new ResourceNotFoundError('File not found.');
  return file;
};

/**
 * GET /avatar/{email_or_id}[/medium] (upstream's avatar view): where the named user's avatar is.
 * Without credentials (a spectator), only by id and only in an organization open to spectators,
 * else 401 as for any unauthenticated request. A user of this organization (by id or email): their
 * avatar, or the unknown-user image when a limited guest may not see them; an unknown email: that
 * email's Gravatar; an unknown id: the Gravatar of the id as text, as upstream. Reads the user
 * (and, for a limited guest, what it may see).
 */
export const avatarRedirectUrl = async (
  realm: Realm | undefined,
  viewer: User | undefined,
  emailOrId: string,
  opts: { medium: boolean },
): Promise<string> => {
  if (!viewer && (!realm || !realm.enableSpectatorAccess || realm.deactivated || !isUserIdText(emailOrId))) throw new UnauthorizedError();
  if (!realm) throw new UnauthorizedError();
  const target = await findUserByIdOrEmail(realm, emailOrId);
  if (!target) return gravatarUrl(emailOrId, { medium: opts.medium, version: AVATAR_VERSION });
  if (viewer && !(await canAccessUser(realm, viewer, target))) return INACCESSIBLE_USER_AVATAR_URL;
  return avatarUrl(target, { medium: opts.medium });
};
