// An organization's icon and logos (upstream's Realm icon_source/icon_version, logo_source/
// logo_version, night_logo_source/night_logo_version, zerver/lib/realm_icon.py and
// realm_logo.py): which source each one has, its version (grows at every change, so clients
// caching by URL fetch the new image), and the URLs register and the events carry. An uploaded
// image is stored like an uploaded avatar (lib/models/avatar.ts: a random key base, new at every
// upload) and served by the same route.
import { createHash } from 'node:crypto';
import { AVATAR_SOURCE_GRAVATAR, AVATAR_SOURCE_UPLOADED, uploadedAvatarKey } from './avatar';
import type { Realm, RealmImage } from './realm';

/** The images an organization has: upstream's icon, logo and night (dark theme) logo. */
export type RealmImageKind = 'icon' | 'logo' | 'night_logo';

export type { RealmImage } from './realm';

/** Upstream's Realm.ICON_FROM_GRAVATAR (the avatars' letter). */
const ICON_FROM_GRAVATAR = AVATAR_SOURCE_GRAVATAR;
/** Upstream's Realm.LOGO_DEFAULT. */
const LOGO_DEFAULT = 'D';
/** Upstream's Realm.ICON_UPLOADED and LOGO_UPLOADED: one letter, the avatars' too. */
export const IMAGE_UPLOADED = AVATAR_SOURCE_UPLOADED;

/** Upstream's MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB (register's max_icon_file_size_mib, max_logo_file_size_mib). */
export const MAX_ICON_FILE_SIZE_MIB = 5;
export const MAX_LOGO_FILE_SIZE_MIB = 5;

/** Where each image is kept on the realm item. */
export const REALM_IMAGE_ATTRIBUTE = { icon: 'icon', logo: 'logo', night_logo: 'nightLogo' } as const satisfies Record<
  RealmImageKind,
  keyof Realm
>;

/** The source of an image never changed (upstream's defaults), and the one DELETE goes back to. */
export const DEFAULT_IMAGE_SOURCE: Record<RealmImageKind, string> = {
  icon: ICON_FROM_GRAVATAR,
  logo: LOGO_DEFAULT,
  night_logo: LOGO_DEFAULT,
};

/** Upstream's first icon_version, logo_version and night_logo_version. */
const FIRST_IMAGE_VERSION = 1;

/** An organization's image as stored, or upstream's default for one never changed. */
export const realmImageOf = (realm: Realm, kind: RealmImageKind): RealmImage =>
  realm[REALM_IMAGE_ATTRIBUTE[kind]] ?? { source: DEFAULT_IMAGE_SOURCE[kind], version: FIRST_IMAGE_VERSION };

/** Upstream's default logo (relative to the organization's URL), for an organization that uploaded none. */
const DEFAULT_LOGO_URL = '/static/images/logo/zulip-org-logo.svg?version=0';

/** An uploaded image's URL: served where uploaded avatars are, versioned. */
const uploadedImageUrl = (image: RealmImage): string | undefined =>
  image.source === IMAGE_UPLOADED && image.path !== undefined
    ? `/user_avatars/${uploadedAvatarKey(image.path)}?version=${image.version}`
    : undefined;

/**
 * Upstream's realm_icon_url: the uploaded icon, else the Gravatar identicon of the organization's
 * subdomain (upstream's gravatar_hash of its string_id; unversioned, as upstream's).
 */
export const realmIconUrl = (realm: Realm): string =>
  uploadedImageUrl(realmImageOf(realm, 'icon')) ??
  `https://secure.gravatar.com/avatar/${createHash('md5').update(realm.stringId.toLowerCase()).digest('hex')}?d=identicon`;

/**
 * Upstream's get_realm_logo_url: the uploaded logo (or night logo), else the default one. Upstream
 * shows the default to organizations on its limited Cloud plan; a self-hosted server (plan_type 1,
 * as register reports) has no such plan.
 */
const realmLogoUrl = (realm: Realm, night: boolean): string =>
  uploadedImageUrl(realmImageOf(realm, night ? 'night_logo' : 'logo')) ?? DEFAULT_LOGO_URL;

/**
 * An image's URL and source, by the names register (with `realm_`) and the `realm` update_dict
 * event (as `data`) give them: icon_url/icon_source, logo_url/logo_source,
 * night_logo_url/night_logo_source (upstream's get_realm_logo_data).
 */
export const realmImageData = (realm: Realm, kind: RealmImageKind): Record<string, string> => {
  const url = kind === 'icon' ? realmIconUrl(realm) : realmLogoUrl(realm, kind === 'night_logo');
  return { [`${kind}_url`]: url, [`${kind}_source`]: realmImageOf(realm, kind).source };
};
