// Users: whether user ids name real, active users of an organization (one batched read for every
// caller, each keeping upstream's own wording for its endpoint), and which users a user may see
// (upstream's check_can_access_user: a guest limited by can_access_all_users_group sees only the
// users it shares a channel or a direct message with).
import { type ApiError, BadRequestError } from '../errors';
import type { Subscription } from '../models/channel';
import { type Realm, dummyUserEmail } from '../models/realm';
import { isGuest, type User, isOwner } from '../models/user';
import { groupIdsOfUser, inGroupSetting, realmGroupSetting, type UserGroup } from '../models/user-group';
import * as channelsStore from '../store/channels';
import * as messagesStore from '../store/messages';
import * as userGroupsStore from '../store/user-groups';
import * as usersStore from '../store/users';
import { canAdminUser } from './bots';

export type UserIdErrors = {
  /**
   * The ids (in the order given) that name no user of the organization; when
   * `deactivated` is not given, deactivated users are among them (upstream's user_ids_to_users).
   */
  unknown: (ids: number[]) => ApiError;
  /** The first deactivated user, by ascending id. */
  deactivated?: (user: User) => ApiError;
  /** The first bot, by ascending id, after every deactivated user passed. */
  bot?: (user: User) => ApiError;
};

/**
 * Reads the users with these ids in one batch and checks them in upstream's order: unknown ids
 * first, then, per user by ascending id, deactivated and (if asked) bots. Returns the users by id.
 */
export const accessActiveUsers = async (realmId: number, userIds: number[], errors: UserIdErrors): Promise<Map<number, User>> => {
  const found = new Map((await usersStore.getMany(realmId, userIds)).map((u) => [u.id, u]));
  const counts = (user: User | undefined): user is User => user !== undefined && (errors.deactivated !== undefined || user.isActive);
  const unknown = userIds.filter((id) => !counts(found.get(id)));
  if (unknown.length > 0) throw errors.unknown(unknown);
  for (const user of [...found.values()].sort((a, b) => a.id - b.id)) {
    if (!user.isActive && errors.deactivated) throw errors.deactivated(user);
    if (user.isBot && errors.bot) throw errors.bot(user);
  }
  return found;
};

/** What the rule of which users a user may see reads, each loaded by the caller at most once (register shares its reads). */
export type UserAccessReads = {
  /** Every named group of the organization. */
  groups: () => Promise<UserGroup[]>;
  /** The user's recursive group memberships. */
  ownGroupIds: () => Promise<Set<number>>;
  /** The user's subscription rows, active and left ones. */
  ownSubscriptions: () => Promise<Subscription[]>;
};

/** Whether the user sees every user: spectators and non-guests do; guests per the organization. */
const seesEveryone = async (realm: Realm, user: User | undefined, reads: UserAccessReads): Promise<boolean> => {
  if (!user || !isGuest(user)) return true;
  const [groups, groupIds] = await Promise.all([reads.groups(), reads.ownGroupIds()]);
  return inGroupSetting(realmGroupSetting(realm, groups, 'can_access_all_users_group'), user.id, groupIds);
};

/**
 * The ids of the users `user` may see (undefined for a spectator), or undefined when it sees
 * everyone. A guest without access to everyone sees itself, the subscribers of its channels and
 * the participants of its direct messages (upstream's rules).
 */
export const accessibleUserIds = async (realm: Realm, user: User | undefined, reads: UserAccessReads): Promise<Set<number> | undefined> => {
  if (!user || (await seesEveryone(realm, user, reads))) return undefined;
  const [subscriptions, conversations] = await Promise.all([reads.ownSubscriptions(), messagesStore.listDmConversationsOfUser(user.id)]);
  const active = subscriptions.filter((s) => s.active);
  const subscriberLists = await Promise.all(active.map((s) => channelsStore.listSubscriberIdsOfChannel(s.channelId)));
  return new Set([user.id, ...subscriberLists.flat(), ...conversations.flatMap((c) => c.userIds)]);
};

/** Whether a user whose accessible users are these may see `target` (bots are always visible). */
export const mayAccessUser = (accessible: Set<number> | undefined, target: User): boolean =>
  !accessible || target.isBot || accessible.has(target.id);

/**
 * Upstream's check_can_access_user: whether `viewer` may see this user (everyone may, but a guest
 * limited by can_access_all_users_group). Reads nothing for a non-guest.
 */
export const canAccessUser = async (realm: Realm, viewer: User, target: User): Promise<boolean> => {
  let groups: Promise<UserGroup[]> | undefined;
  const realmGroups = () => (groups ??= userGroupsStore.listGroupsOfRealm(realm.id));
  const accessible = await accessibleUserIds(realm, viewer, {
    groups: realmGroups,
    ownGroupIds: async () => groupIdsOfUser(viewer.id, await realmGroups()),
    ownSubscriptions: () => channelsStore.listSubscriptionsOfUser(viewer.id),
  });
  return mayAccessUser(accessible, target);
};

const ID = /^\s*[-+]?\d+\s*$/;

/** Whether a path segment naming a user is an id (else it is an email), as upstream's int() decides. */
export const isUserIdText = (userIdOrEmail: string): boolean => ID.test(userIdOrEmail);

const DUMMY_EMAIL = /^user(\d+)@/i;

/**
 * The user of this organization that a path segment names: an id, an email (any case), or the
 * placeholder address user{id}@{host} that inaccessible users are shown with. Deactivated users
 * and bots included; undefined when there is none here. One read (two for an unknown email).
 */
export const findUserByIdOrEmail = async (realm: Realm, userIdOrEmail: string): Promise<User | undefined> => {
  if (isUserIdText(userIdOrEmail)) {
    const user = await usersStore.get(realm.id, Number(userIdOrEmail));
    return user?.realmId === realm.id ? user : undefined;
  }
  const email = userIdOrEmail.trim();
  const byEmail = await usersStore.getByEmail(realm.id, email);
  if (byEmail) return byEmail;
  const dummy = DUMMY_EMAIL.exec(email);
  if (dummy && email.toLowerCase() === dummyUserEmail(realm, Number(dummy[1])).toLowerCase()) {
    const user = await usersStore.get(realm.id, Number(dummy[1]));
    return user?.realmId === realm.id ? user : undefined;
  }
  return undefined;
};

/** GET /users/{user_id} and /users/{email}: the user, or "No such user". Reads only. */
export const accessUserByIdOrEmail = async (realm: Realm, userIdOrEmail: string): Promise<User> => {
  const user = await findUserByIdOrEmail(realm, userIdOrEmail);
  if (!user) throw new BadRequestError('No such user');
  return user;
};

type AccessOptions = { allowDeactivated?: boolean; allowBots?: boolean };

/** The checks of upstream's access_user_by_id both ways share: the user exists here, is no bot unless allowed, is active unless allowed. */
const accessUserCommon = async (caller: User, userId: number, opts: AccessOptions): Promise<User> => {
  const target = await usersStore.get(caller.realmId, userId, { consistent: true });
  if (!target || target.realmId !== caller.realmId) throw new BadRequestError('No such user');
  if (target.isBot && !opts.allowBots) throw new BadRequestError('No such user');
  if (!target.isActive && !opts.allowDeactivated) throw new BadRequestError('User is deactivated');
  return target;
};

/**
 * Upstream's access_user_by_id with for_admin: a user of the caller's organization ("No such
 * user"; a bot too unless `allowBots`), active unless `allowDeactivated` ("User is deactivated"),
 * whom the caller may administer ("Insufficient permission"). Read consistently.
 */
export const accessUserForAdmin = async (caller: User, userId: number, opts: AccessOptions = {}): Promise<User> => {
  const target = await accessUserCommon(caller, userId, opts);
  if (!canAdminUser(caller, target)) throw new BadRequestError('Insufficient permission');
  return target;
};

/**
 * Upstream's access_user_by_id without for_admin, to read a user: the same checks, then whether
 * the caller may see this user at all (a guest limited by can_access_all_users_group: "Insufficient
 * permission").
 */
export const accessUserToRead = async (realm: Realm, caller: User, userId: number, opts: AccessOptions = {}): Promise<User> => {
  const target = await accessUserCommon(caller, userId, opts);
  if (!(await canAccessUser(realm, caller, target))) throw new BadRequestError('Insufficient permission');
  return target;
};

/** Upstream's check_last_owner: the user is the organization's only active human owner. */
export const isLastOwner = async (user: User): Promise<boolean> => {
  if (!isOwner(user) || user.isBot) return false;
  const users = await usersStore.listOfRealm(user.realmId);
  return users.filter((u) => u.isActive && !u.isBot && isOwner(u)).length === 1;
};

/**
 * Upstream's access_user_by_id_including_cross_realm with bots and deactivated users allowed, not
 * for an administrator: a user of the caller's organization ("No such user" otherwise) whom the
 * caller may see ("Insufficient permission" for a guest limited by can_access_all_users_group).
 * System bots, which belong to no organization here, are no such user (docs/data-model.md, "Muted
 * users"). One read (more for a limited guest).
 */
export const accessUserToMute = async (realm: Realm, caller: User, userId: number): Promise<User> => {
  const target = await usersStore.get(realm.id, userId);
  if (!target || target.realmId !== realm.id) throw new BadRequestError('No such user');
  if (!(await canAccessUser(realm, caller, target))) throw new BadRequestError('Insufficient permission');
  return target;
};

/**
 * The user a single-user presence request names: an active user of the caller's organization, by
 * id when the path is an integer, else by API email. Anything else, another organization's user
 * included, is "No such user"; a bot is refused.
 */
export const accessUserForPresence = async (realm: Realm, userIdOrEmail: string): Promise<User> => {
  const target = await findUserByIdOrEmail(realm, userIdOrEmail);
  if (!target || !target.isActive) throw new BadRequestError('No such user');
  if (target.isBot || target.botType !== null) throw new BadRequestError('Presence is not supported for bot users.');
  return target;
};
