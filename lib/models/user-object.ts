// The user dict of the API (upstream's format_user_row): realm_users, GET /users, the `realm_user`
// events. Pure: which users and fields a caller gets is decided by the caller (lib/state/realm-user.ts).
import { AVATAR_SOURCE_GRAVATAR, avatarSourceOf, avatarUrl, avatarVersionOf } from './avatar';
import { isAdmin, isGuest, isOwner, type User } from './user';

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Upstream's date_joined: ISO 8601 to the minute in UTC, or the day only for spectators. */
export const formatDateJoined = (seconds: number, dayOnly: boolean): string => {
  const d = new Date(seconds * 1000);
  const day = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  return dayOnly ? day : `${day}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}+00:00`;
};

/** The API dict of a user, as the caller may see it. */
export const userDict = (
  target: User,
  opts: { spectator: boolean; clientGravatar: boolean; includeAvatar: boolean; profileData: Record<string, unknown> | undefined },
): Record<string, unknown> => ({
  email: target.email,
  user_id: target.id,
  avatar_version: avatarVersionOf(target),
  is_admin: isAdmin(target),
  is_owner: isOwner(target),
  is_guest: isGuest(target),
  role: target.role,
  is_bot: target.isBot,
  full_name: target.fullName,
  ...(opts.spectator ? {} : { timezone: target.timezone }),
  is_active: target.isActive,
  date_joined: formatDateJoined(target.dateJoined, opts.spectator),
  // Every email is visible to every member here (see User.email); spectators see none.
  delivery_email: opts.spectator ? null : target.email,
  // client_gravatar: a Gravatar avatar the client can compute from the visible email is null.
  ...(opts.includeAvatar
    ? { avatar_url: opts.clientGravatar && avatarSourceOf(target) === AVATAR_SOURCE_GRAVATAR ? null : avatarUrl(target) }
    : {}),
  ...(target.isBot
    ? { bot_type: target.botType, bot_owner_id: target.botOwnerId }
    : opts.profileData !== undefined
      ? { profile_data: opts.profileData }
      : {}),
});

/**
 * A user as a `realm_user` add event carries them (upstream's notify_created_user): the object
 * realm_users holds, with the avatar URL and no profile data yet.
 */
export const newUserObject = (user: User): Record<string, unknown> =>
  userDict(user, { spectator: false, clientGravatar: false, includeAvatar: true, profileData: {} });
