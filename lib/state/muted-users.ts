// Register's `muted_users`: the caller's mutes ([] for a spectator), one consistent query of the
// caller's partition, so a mute made before this read is in the state and not also delivered by
// the queue.
import { apiMutedUser } from '../models/muted-user';
import * as mutedUsersStore from '../store/muted-users';
import type { StateBuilder } from './registry';

export const mutedUsersState: StateBuilder = async (ctx) => {
  if (!ctx.want('muted_users')) return {};
  const user = ctx.user;
  if (!user) return { muted_users: [] };
  return { muted_users: (await mutedUsersStore.listMutedUsersOfUser(user.id, { consistent: true })).map(apiMutedUser) };
};
