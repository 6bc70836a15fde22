// What several register builders read: the organization's users, channels and groups, and the
// caller's subscriptions. Each is read at most once per register (the builders share the
// StateContext object, so the reads are memoized on it) and only when a builder asks for it.
import type { Channel, Subscription } from '../models/channel';
import type { User } from '../models/user';
import { groupIdsOfUser, type UserGroup } from '../models/user-group';
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

/** The caller's recursive group memberships (empty for a spectator). */
export const ownGroupIds = (ctx: StateContext): Promise<Set<number>> => {
  const user = ctx.user;
  if (!user) return Promise.resolve(new Set());
  return once(ctx, 'ownGroupIds', async () => groupIdsOfUser(user.id, await realmGroups(ctx)));
};
