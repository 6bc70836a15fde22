// Whether user ids name real, active users of an organization: one batched read for every caller,
// each keeping upstream's own wording for its endpoint.
import type { ApiError } from '../errors';
import type { User } from '../models/user';
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
