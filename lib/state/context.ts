// What several register builders read: the organization's users, channels and groups, and the
// caller's subscriptions. Each is read at most once per register (the builders share the
// StateContext object, so the reads are memoized on it) and only when a builder asks for it.
import type { Channel, Subscription } from '../models/channel';
import type { GroupSettingValue } from '../models/realm';
import type { User } from '../models/user';
import type { UserGroup } from '../models/user-group';
import * as channelsStore from '../store/channels';
import * as userGroupsStore from '../store/user-groups';
import * as usersStore from '../store/users';
import type { StateContext } from './registry';

const memo = new WeakMap<StateContext, Map<string, Promise<unknown>>>();

/** Runs `load` once per register and category of data; later callers share the same promise. */
export const once = <T>(ctx: StateContext, key: string, load: () => Promise<T>): Promise<T> => {
  let cache = memo.get(ctx);
  if (!cache) {
    cache = new Map();
    memo.set(ctx, cache);
  }
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as Promise<T>;
};

/** Every account of the organization (bots and deactivated users included). */
export const realmUsers = (ctx: StateContext): Promise<User[]> => once(ctx, 'users', () => usersStore.listOfRealm(ctx.realm.id));

/** Every channel of the organization, archived ones included. */
export const realmChannels = (ctx: StateContext): Promise<Channel[]> =>
  once(ctx, 'channels', () => channelsStore.listChannelsOfRealm(ctx.realm.id));

/** Every named group of the organization (system, active and deactivated). */
export const realmGroups = (ctx: StateContext): Promise<UserGroup[]> =>
  once(ctx, 'groups', () => userGroupsStore.listGroupsOfRealm(ctx.realm.id));

/** The caller's subscription rows, active and left ones ([] for a spectator). */
export const ownSubscriptions = (ctx: StateContext): Promise<Subscription[]> => {
  const user = ctx.user;
  return user ? once(ctx, 'subscriptions', () => channelsStore.listSubscriptionsOfUser(user.id)) : Promise.resolve([]);
};

/** The ids of the groups the user belongs to, directly or through subgroups (active groups only). */
const groupIdsOfUser = (userId: number, groups: UserGroup[]): Set<number> => {
  const active = groups.filter((g) => !g.deactivated);
  const result = new Set(active.filter((g) => g.members.includes(userId)).map((g) => g.id));
  // A group contains its subgroups' members: walk up from the direct memberships.
  for (let changed = true; changed;) {
    changed = false;
    for (const group of active) {
      if (!result.has(group.id) && group.directSubgroupIds.some((id) => result.has(id))) {
        result.add(group.id);
        changed = true;
      }
    }
  }
  return result;
};

/** The caller's recursive group memberships (empty for a spectator). */
export const ownGroupIds = (ctx: StateContext): Promise<Set<number>> => {
  const user = ctx.user;
  if (!user) return Promise.resolve(new Set());
  return once(ctx, 'ownGroupIds', async () => groupIdsOfUser(user.id, await realmGroups(ctx)));
};

/** Whether a user with these memberships is in a group-setting value (a group, or an anonymous group). */
export const inGroupSetting = (value: GroupSettingValue | undefined, userId: number, groupIds: Set<number>): boolean => {
  if (value === undefined) return false;
  if (typeof value === 'number') return groupIds.has(value);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => groupIds.has(id));
};

/** The id of a system group of the organization (`role:members`, ...). */
export const systemGroupId = (groups: UserGroup[], name: string): number | undefined =>
  groups.find((g) => g.isSystemGroup && g.name === name)?.id;
