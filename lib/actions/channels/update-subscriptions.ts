// PATCH /users/me/subscriptions: subscribe and unsubscribe the caller in one request (upstream's
// update_subscriptions_backend, which composes its add and remove views in one transaction).
import { RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { doSubscribeSelf } from './subscriptions';
import { accessChannelsToLeave, doUnsubscribe } from './unsubscribe';

/**
 * PATCH /users/me/subscriptions, as upstream's update_subscriptions_backend: at least one of
 * `add` and `delete` ('Nothing to do. Specify at least one of "add" or "delete".'), then the
 * caller subscribed to `add` as POST /users/me/subscriptions does (creating channels, with their
 * colors), then unsubscribed from `delete` as DELETE does. Every check of both halves passes
 * before anything is written: `delete`'s channel names are checked once `add`'s checks passed
 * (a channel `add` creates counts as existing), so an error in either leaves nothing changed.
 * Emits what the two halves emit. Answers both halves' fields in one object.
 */
export const doUpdateSubscriptions = async (
  realm: Realm,
  caller: User,
  add: { name: string; description?: string; color?: string }[],
  remove: string[],
): Promise<Record<string, unknown>> => {
  if (add.length === 0 && remove.length === 0) throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
  const checkDelete = async (creating: string[]) => {
    await accessChannelsToLeave(caller, remove, await RealmGroups.load(caller.realmId), creating);
  };
  const added =
    add.length > 0
      ? await doSubscribeSelf(realm, caller, add, checkDelete)
      : (await checkDelete([]), { subscribed: {}, already_subscribed: {} });
  const removed = await doUnsubscribe(caller, remove, undefined);
  return { ...added, ...removed };
};
