// Register state "user_status": every active user's status that differs from none, by user id
// (upstream's get_all_users_status_dict), with `away` for those who hide their presence.
import { toApiUserStatus } from '../models/user-status';
import * as userStatusStore from '../store/user-status';
import { realmUsers } from './context';
import type { StateBuilder } from './registry';

export const userStatusState: StateBuilder = async (ctx) => {
  if (!ctx.want('user_status')) return {};
  const [statuses, users] = await Promise.all([userStatusStore.listUserStatusesOfRealm(ctx.realm.id), realmUsers(ctx)]);
  const byId = new Map(users.map((u) => [u.id, u]));
  const entries = statuses
    .map((status) => {
      const owner = byId.get(status.userId);
      return owner?.isActive ? ([String(status.userId), toApiUserStatus(status, owner.presenceEnabled)] as const) : undefined;
    })
    .filter((entry) => entry !== undefined && Object.keys(entry[1]).length > 0);
  return { user_status: Object.fromEntries(entries as [string, Record<string, unknown>][]) };
};
