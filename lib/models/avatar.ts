// Avatar URLs. This service stores no uploaded avatars: every account's avatar is its Gravatar
// (upstream's avatar_source "G", version 1), addressed by the hash of the lowercased email.
import { createHash } from 'node:crypto';

export const AVATAR_SOURCE_GRAVATAR = 'G';
export const AVATAR_VERSION = 1;
/** Upstream's medium size, for the settings UI. */
const MEDIUM_AVATAR_SIZE = 500;

/** The avatar shown for a user the caller may not access (relative to the organization's URL). */
export const INACCESSIBLE_USER_AVATAR_URL = '/static/images/unknown-user-avatar.png';

/** The Gravatar URL of an email, as upstream builds it (identicon fallback, versioned). */
export const gravatarUrl = (email: string, opts: { medium?: boolean } = {}): string => {
  const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
  const size = opts.medium ? `&s=${MEDIUM_AVATAR_SIZE}` : '';
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${size}&version=${AVATAR_VERSION}`;
};
