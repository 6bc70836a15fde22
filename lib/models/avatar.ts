// Avatar URLs, as upstream's zerver/lib/avatar.py builds them: an account's avatar is its Gravatar
// (avatar_source "G", addressed by the hash of the lowercased email) until the user uploads one
// (avatar_source "U", served from /user_avatars/...). The version grows at every change, so that
// clients caching by URL fetch the new image.
import { createHash, randomBytes } from 'node:crypto';
import type { User } from './user';

export const AVATAR_SOURCE_GRAVATAR = 'G';
export const AVATAR_SOURCE_UPLOADED = 'U';
export type AvatarSource = typeof AVATAR_SOURCE_GRAVATAR | typeof AVATAR_SOURCE_UPLOADED;
/** The version of an account that never changed its avatar. */
export const AVATAR_VERSION = 1;
/** Upstream's medium size, for the settings UI. */
const MEDIUM_AVATAR_SIZE = 500;
/** Upstream's MAX_AVATAR_FILE_SIZE_MIB. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;
export const MAX_AVATAR_FILE_SIZE_BYTES = MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024;

/**
 * The type of an image by its leading bytes (PNG, JPEG, GIF, WebP), or undefined for anything
 * else. Stands in for upstream's decoding of the upload (there is no image library here), so that
 * the unauthenticated avatar URLs serve only images, with a type the client did not choose.
 */
export const imageTypeOf = (bytes: Buffer): string | undefined => {
  if (bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return 'image/png';
  if (bytes.subarray(0, 3).equals(Buffer.from('ffd8ff', 'hex'))) return 'image/jpeg';
  if (['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
};

/** The avatar shown for a user the caller may not access (relative to the organization's URL). */
export const INACCESSIBLE_USER_AVATAR_URL = '/static/images/unknown-user-avatar.png';

/** What an avatar URL depends on. Users stored before uploads existed have neither field: a Gravatar, version 1. */
export type AvatarOwner = Pick<User, 'email' | 'avatarSource' | 'avatarVersion' | 'avatarPath'>;

export const avatarSourceOf = (user: AvatarOwner): AvatarSource => user.avatarSource ?? AVATAR_SOURCE_GRAVATAR;
export const avatarVersionOf = (user: AvatarOwner): number => user.avatarVersion ?? AVATAR_VERSION;

/** The Gravatar URL of an email, as upstream builds it (identicon fallback, versioned). */
export const gravatarUrl = (email: string, opts: { medium?: boolean; version?: number } = {}): string => {
  const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
  const size = opts.medium ? `&s=${MEDIUM_AVATAR_SIZE}` : '';
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${size}&version=${opts.version ?? AVATAR_VERSION}`;
};

/**
 * A new S3 key base for an uploaded avatar: `<realm id>/<40 random hex digits>`, new at every
 * upload (so that nobody can guess it, and two uploads never share one), kept on the user.
 */
export const newAvatarPath = (realmId: number): string => `${realmId}/${randomBytes(20).toString('hex')}`;

/**
 * Whether an avatar URL is a Gravatar (a client_gravatar client computes those itself, so they
 * are sent as null), as opposed to an uploaded avatar, which must be sent.
 */
export const isGravatarUrl = (url: string | null): boolean => url !== null && url.startsWith('https://secure.gravatar.com/avatar/');

/** The S3 key of one size of an uploaded avatar. */
export const uploadedAvatarKey = (avatarPath: string, opts: { medium?: boolean } = {}): string =>
  `${avatarPath}${opts.medium ? '-medium' : ''}.png`;

/** Where uploaded avatars are served, at the site root (as upstream's local upload backend). */
const USER_AVATARS_PREFIX = '/user_avatars/';

/** A user's avatar URL: the uploaded image, or the Gravatar of the email; versioned either way. */
export const avatarUrl = (user: AvatarOwner, opts: { medium?: boolean } = {}): string => {
  const version = avatarVersionOf(user);
  if (avatarSourceOf(user) === AVATAR_SOURCE_UPLOADED && user.avatarPath !== undefined)
    return `${USER_AVATARS_PREFIX}${uploadedAvatarKey(user.avatarPath, opts)}?version=${version}`;
  return gravatarUrl(user.email, { ...opts, version });
};
