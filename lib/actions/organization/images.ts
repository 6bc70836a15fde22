// The organization's icon and logos (upstream's zerver/views/realm_icon.py and realm_logo.py,
// zerver/actions/realm_icon.py do_change_icon_source and realm_logo.py do_change_logo_source):
// uploading one, and going back to the Gravatar icon or the default logo. Administrators only.
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { UploadedFile } from '../../models/attachment';
import { newAvatarPath, uploadedAvatarKey } from '../../models/avatar';
import type { RealmEvent } from '../../models/event';
import type { Realm } from '../../models/realm';
import { checkImageFile } from '../../models/realm-emoji';
import {
  DEFAULT_IMAGE_SOURCE,
  IMAGE_UPLOADED,
  MAX_ICON_FILE_SIZE_MIB,
  MAX_LOGO_FILE_SIZE_MIB,
  REALM_IMAGE_ATTRIBUTE,
  realmIconUrl,
  realmImageData,
  realmImageOf,
  type RealmImageKind,
} from '../../models/realm-images';
import type { User } from '../../models/user';
import * as filesStore from '../../store/files';
import * as realmsStore from '../../store/realms';
import { forAdministrators } from '../requiring';
import { LostRaceError, retryLostRaces } from '../retry';

/**
 * Upstream's do_change_icon_source / do_change_logo_source: sets the image's source (and, for an
 * upload, its S3 key base) with the next version, conditionally on the version read (a concurrent
 * change makes it read the organization again and take the version after), then sends everyone of
 * the organization a `realm` update_dict (property `icon`, `logo` or `night_logo`) with the new URL
 * and source. Returns the changed organization.
 */
const changeRealmImage = async (realm: Realm, kind: RealmImageKind, change: { source: string; path?: string }): Promise<Realm> => {
  // The organization as the request read it, then, after a lost race, as it is now.
  let current: Realm | undefined = realm;
  const changed = await retryLostRaces(async () => {
    current ??= await realmsStore.get(realm.id, { consistent: true });
    if (!current) throw new Error(`organization ${realm.id} is gone`);
    const image = { ...change, version: realmImageOf(current, kind).version + 1 };
    if (await realmsStore.setImage(realm.id, REALM_IMAGE_ATTRIBUTE[kind], image, image.version - 1)) {
      return { ...current, [REALM_IMAGE_ATTRIBUTE[kind]]: image };
    }
    current = undefined;
    throw new LostRaceError();
  });
  const event: RealmEvent = { type: 'realm', op: 'update_dict', property: kind, data: realmImageData(changed, kind) };
  await sendEvent(realm.id, event, 'realm');
  return changed;
};

/**
 * Upstream's upload checks and write: exactly one file (`oneFileMessage`), then checkImageFile's
 * size, type and decoding checks. Writes the image to S3 under a new random key base (served where
 * uploaded avatars are), then switches the organization to it; a crash between the two leaves an
 * unreferenced object, never a reference to a missing one.
 */
const uploadRealmImage = async (realm: Realm, kind: RealmImageKind, files: UploadedFile[], oneFileMessage: string, maxSizeMib: number) => {
  if (files.length !== 1) throw new BadRequestError(oneFileMessage);
  const contentType = checkImageFile(files[0], maxSizeMib);
  const path = newAvatarPath(realm.id);
  await filesStore.putFile(uploadedAvatarKey(path), files[0].content, contentType);
  return changeRealmImage(realm, kind, { source: IMAGE_UPLOADED, path });
};

/**
 * POST /realm/icon (upstream's upload_icon): for administrators ("Must be an organization
 * administrator"); one file ("You must upload exactly one icon.") of at most 5 MiB that is an
 * image (checkImageFile). Emits the `realm` update_dict `icon`. Returns the new icon URL.
 */
export const checkUploadRealmIcon = forAdministrators(async (_user: User, realm: Realm, files: UploadedFile[]): Promise<string> =>
  realmIconUrl(await uploadRealmImage(realm, 'icon', files, 'You must upload exactly one icon.', MAX_ICON_FILE_SIZE_MIB)),
);

/**
 * DELETE /realm/icon (upstream's delete_icon_backend): for administrators; back to the Gravatar
 * icon, with a new version. The uploaded image stays in the bucket, as upstream keeps it (a cached
 * URL may still name it). Emits the `realm` update_dict `icon`. Returns the Gravatar URL.
 */
export const doDeleteRealmIcon = forAdministrators(async (_user: User, realm: Realm): Promise<string> =>
  realmIconUrl(await changeRealmImage(realm, 'icon', { source: DEFAULT_IMAGE_SOURCE.icon })),
);

/**
 * POST /realm/logo (upstream's upload_logo): for administrators; `night` picks the dark theme's
 * logo. Upstream refuses organizations on its limited Cloud plan first; a self-hosted server has
 * no plan limits, so every organization may upload. One file ("You must upload exactly one
 * logo.") of at most 5 MiB that is an image (checkImageFile). Emits the `realm` update_dict
 * `logo` or `night_logo`.
 */
export const checkUploadRealmLogo = forAdministrators(
  async (_user: User, realm: Realm, night: boolean, files: UploadedFile[]): Promise<void> => {
    await uploadRealmImage(realm, night ? 'night_logo' : 'logo', files, 'You must upload exactly one logo.', MAX_LOGO_FILE_SIZE_MIB);
  },
);

/**
 * DELETE /realm/logo (upstream's delete_logo_backend): for administrators; the logo (or, with
 * `night`, the night logo) goes back to the default, with a new version; the uploaded image stays
 * in the bucket. Emits the `realm` update_dict `logo` or `night_logo`.
 */
export const doDeleteRealmLogo = forAdministrators(async (_user: User, realm: Realm, night: boolean): Promise<void> => {
  const kind = night ? 'night_logo' : 'logo';
  await changeRealmImage(realm, kind, { source: DEFAULT_IMAGE_SOURCE[kind] });
});
