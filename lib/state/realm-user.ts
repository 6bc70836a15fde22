// Register state "realm_user": the organization's user list (active and deactivated users), the
// cross-realm bots, and the caller's own identity, role, avatar and permissions. The user list is
// one query of the organization's users (plus one index query for every profile value): it is the
// one section whose size is the organization's, as upstream's is.
import { nowSeconds } from '../clock';
import { renderPlainMarkdown } from '../render';
import { AVATAR_VERSION, avatarSourceOf, avatarUrl, INACCESSIBLE_USER_AVATAR_URL } from '../models/avatar';
import { isRenderable, type ProfileValue } from '../models/custom-profile-field';
import { BadRequestError } from '../errors';
import { dummyUserEmail, type Realm } from '../models/realm';
import { formatDateJoined, userDict } from '../models/user-object';
import { accessibleUserIds, mayAccessUser } from '../access/users';
import { INTERNAL_REALM_ID, isAdmin, isGuest, isModerator, isOwner, Role, type User } from '../models/user';
import * as customProfileFieldsStore from '../store/custom-profile-fields';
import * as presenceStore from '../store/presence';
import * as usersStore from '../store/users';
import { once, ownGroupIds, ownSubscriptions, realmGroups, realmUsers } from './context';
import { inGroupSetting } from '../models/user-group';
import { realmGroupSetting } from '../models/user-group';
import type { StateBuilder, StateContext } from './registry';

/**
 * With user_avatar_url_field_optional, avatar URLs are left out for users who have not been
 * connected for this long (upstream leaves them out for long-term idle users); clients fetch
 * those avatars on demand.
 */
const LONG_TERM_IDLE_DAYS = 180;

/** Who a spectator is in the user fields: upstream's anonymous guest with id 0. */
const ANONYMOUS_USER = { id: 0, email: 'username@example.com', fullName: 'Anonymous User' };

/** Users counted as long-term idle: humans not connected within LONG_TERM_IDLE_DAYS. */
const recentlyConnectedIds = (ctx: StateContext): Promise<Set<number>> =>
  once(ctx, 'recentlyConnected', async () => {
    const rows = await presenceStore.listConnectedSince(ctx.realm.id, nowSeconds() - LONG_TERM_IDLE_DAYS * 86400);
    return new Set(rows.map((p) => p.userId));
  });

/** Each user's profile data, keyed by field id, with rendered_value for text fields. */
const profileDataByUser = async (ctx: StateContext): Promise<Map<number, Record<string, Record<string, string>>>> => {
  const [fields, values] = await Promise.all([
    customProfileFieldsStore.listFieldsOfRealm(ctx.realm.id),
    customProfileFieldsStore.listValuesOfRealm(ctx.realm.id),
  ]);
  const fieldById = new Map(fields.map((f) => [f.id, f]));
  const result = new Map<number, Record<string, Record<string, string>>>();
  const entry = (v: ProfileValue): Record<string, string> | undefined => {
    const field = fieldById.get(v.fieldId);
    if (!field) return undefined;
    return isRenderable(field.type)
      ? { value: v.value, rendered_value: v.renderedValue ?? renderPlainMarkdown(v.value) }
      : { value: v.value };
  };
  for (const v of values.sort((a, b) => a.fieldId - b.fieldId)) {
    const data = entry(v);
    if (!data) continue;
    result.set(v.userId, { ...(result.get(v.userId) ?? {}), [String(v.fieldId)]: data });
  }
  return result;
};

/** upstream's placeholder for a user the caller may not see. */
const inaccessibleUser = (ctx: StateContext, userId: number): Record<string, unknown> => ({
  email: dummyUserEmail(ctx.realm, userId),
  user_id: userId,
  avatar_version: AVATAR_VERSION,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  role: Role.MEMBER,
  is_bot: false,
  full_name: 'Unknown user',
  timezone: '',
  is_active: true,
  date_joined: formatDateJoined(0, false),
  delivery_email: null,
  avatar_url: INACCESSIBLE_USER_AVATAR_URL,
  profile_data: {},
});

/** What decides the user objects a caller gets: who it may see, profile data, avatars. */
type UserView = {
  spectator: boolean;
  /** The ids the caller may see, or undefined when it sees everyone. */
  accessible: Set<number> | undefined;
  profileData: Map<number, Record<string, Record<string, string>>> | undefined;
  /** Users whose avatar URL is sent, or undefined for everyone. */
  withAvatar: Set<number> | undefined;
  clientGravatar: boolean;
};

const loadUserView = async (ctx: StateContext, opts: { includeProfileData: boolean; clientGravatar: boolean }): Promise<UserView> => {
  const spectator = ctx.user === undefined;
  const avatarsOptional = ctx.capabilities.user_avatar_url_field_optional === true;
  const [accessible, profileData, recent] = await Promise.all([
    accessibleUserIds(ctx.realm, ctx.user, {
      groups: () => realmGroups(ctx),
      ownGroupIds: () => ownGroupIds(ctx),
      ownSubscriptions: () => ownSubscriptions(ctx),
    }),
    opts.includeProfileData && !spectator ? profileDataByUser(ctx) : Promise.resolve(undefined),
    avatarsOptional ? recentlyConnectedIds(ctx) : Promise.resolve(undefined),
  ]);
  return { spectator, accessible, profileData, withAvatar: recent, clientGravatar: opts.clientGravatar };
};

const viewDict = (view: UserView, target: User): Record<string, unknown> =>
  userDict(target, {
    spectator: view.spectator,
    clientGravatar: view.clientGravatar,
    includeAvatar: view.withAvatar === undefined || target.isBot || view.withAvatar.has(target.id),
    profileData: view.profileData ? (view.profileData.get(target.id) ?? {}) : undefined,
  });

/** realm_users and realm_non_active_users as the caller may see them. */
const userLists = async (ctx: StateContext): Promise<{ realm_users: unknown[]; realm_non_active_users: unknown[] }> => {
  const [users, view] = await Promise.all([
    realmUsers(ctx),
    loadUserView(ctx, { includeProfileData: true, clientGravatar: ctx.options.clientGravatar }),
  ]);
  const active: unknown[] = [];
  const inactive: unknown[] = [];
  for (const target of [...users].sort((a, b) => a.id - b.id)) {
    let dict: Record<string, unknown>;
    if (!mayAccessUser(view.accessible, target)) {
      if (ctx.capabilities.user_list_incomplete) continue;
      dict = inaccessibleUser(ctx, target.id);
    } else {
      dict = viewDict(view, target);
    }
    // A placeholder counts as active: a user one may not see is not known to be deactivated.
    (dict.is_active ? active : inactive).push(dict);
  }
  return { realm_users: active, realm_non_active_users: inactive };
};

/** The options of the user objects of the users endpoints (GET /users, /users/{id}, /users/me). */
export type UserObjectOptions = { clientGravatar: boolean; includeProfileData: boolean; userIds?: number[] };

/**
 * GET /users: the organization's users as realm_users shapes them, deactivated users and bots
 * included, by id; a guest limited by can_access_all_users_group gets only the users it may see
 * (the others are left out, not replaced) and every bot. `userIds` limits the list; ids of no user
 * here are left out silently. One query of the organization's users.
 */
export const listUserObjects = async (ctx: StateContext, opts: UserObjectOptions): Promise<Record<string, unknown>[]> => {
  const [users, view] = await Promise.all([realmUsers(ctx), loadUserView(ctx, opts)]);
  const wanted = opts.userIds ? new Set(opts.userIds) : undefined;
  return [...users]
    .filter((u) => (!wanted || wanted.has(u.id)) && mayAccessUser(view.accessible, u))
    .sort((a, b) => a.id - b.id)
    .map((u) => viewDict(view, u));
};

/**
 * GET /users/{user_id}, /users/{email}, /users/me: one user as realm_users shapes it.
 * "Insufficient permission" when a limited guest may not see that user.
 */
export const userObject = async (ctx: StateContext, target: User, opts: UserObjectOptions): Promise<Record<string, unknown>> => {
  const view = await loadUserView(ctx, opts);
  if (!mayAccessUser(view.accessible, target)) throw new BadRequestError('Insufficient permission');
  return viewDict(view, target);
};

/** A context for reading user objects outside POST /register (no capabilities, no queue). */
export const userReadContext = (realm: Realm, user: User): StateContext => ({
  realm,
  user,
  want: () => true,
  capabilities: {},
  options: {
    applyMarkdown: true,
    clientGravatar: false,
    includeSubscribers: 'false',
    slimPresence: false,
    presenceHistoryLimitDays: undefined,
  },
});

/** The caller's permissions that clients show or hide UI for. */
const ownPermissions = async (ctx: StateContext): Promise<Record<string, boolean>> => {
  const user = ctx.user;
  if (!user || isGuest(user)) {
    // Guests (and spectators, who are treated as guests) may do none of these.
    return {
      can_create_private_streams: false,
      can_create_public_streams: false,
      can_create_streams: false,
      can_create_web_public_streams: false,
      can_subscribe_other_users: false,
      can_invite_others_to_realm: false,
    };
  }
  const [groups, groupIds] = await Promise.all([realmGroups(ctx), ownGroupIds(ctx)]);
  const allowed = (setting: string) => inGroupSetting(realmGroupSetting(ctx.realm, groups, setting), user.id, groupIds);
  const isPrivate = allowed('can_create_private_channel_group');
  const isPublic = allowed('can_create_public_channel_group');
  const isWebPublic = ctx.realm.enableSpectatorAccess && allowed('can_create_web_public_channel_group');
  return {
    can_create_private_streams: isPrivate,
    can_create_public_streams: isPublic,
    can_create_streams: isPrivate || isPublic || isWebPublic,
    can_create_web_public_streams: isWebPublic,
    can_subscribe_other_users: allowed('can_add_subscribers_group'),
    can_invite_others_to_realm: allowed('can_invite_users_group'),
  };
};

/** "realm_user". The caller's own avatar URL is always sent in full (upstream's choice). */
export const realmUserState: StateBuilder = async (ctx) => {
  if (!ctx.want('realm_user')) return {};
  const user = ctx.user;
  const me = user ?? { ...ANONYMOUS_USER, role: Role.GUEST };
  const [lists, permissions, systemBots] = await Promise.all([
    userLists(ctx),
    ownPermissions(ctx),
    usersStore.listOfRealm(INTERNAL_REALM_ID),
  ]);
  return {
    ...lists,
    // The system bots (Notification Bot) that post in every organization and belong to none.
    cross_realm_bots: systemBots
      .sort((a, b) => a.id - b.id)
      .map((bot) => ({
        ...userDict(bot, { spectator: user === undefined, clientGravatar: false, includeAvatar: true, profileData: undefined }),
        is_system_bot: true,
      })),
    avatar_source: avatarSourceOf(me),
    avatar_url: avatarUrl(me),
    avatar_url_medium: avatarUrl(me, { medium: true }),
    ...permissions,
    is_admin: user ? isAdmin(user) : false,
    is_owner: user ? isOwner(user) : false,
    is_moderator: user ? isModerator(user) : false,
    is_guest: user ? isGuest(user) : true,
    user_id: me.id,
    email: me.email,
    delivery_email: me.email,
    full_name: me.fullName,
  };
};
