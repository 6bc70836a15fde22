// Users: whether user ids name real, active users of an organization (one batched read for every
// caller, each keeping upstream's own wording for its endpoint), and which users a user may see
// (upstream's check_can_access_user: a guest limited by can_access_all_users_group sees only the
// users it shares a channel or a direct message with).
import type { ApiError } from '../errors';
import type { Subscription } from '../models/channel';
import type { Realm } from '../models/realm';
import { isGuest, type User } from '../models/user';
import { groupIdsOfUser, inGroupSetting, realmGroupSetting, type UserGroup } from '../models/user-group';
import * as channelsStore from '../store/channels';
import * as messagesStore from '../store/messages';
import * as userGroupsStore from '../store/user-groups';
import * as usersStore from '../store/users';

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
