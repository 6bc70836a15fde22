// Deactivating and reactivating accounts (upstream's deactivate_user_backend,
// deactivate_user_own_backend, reactivate_user_backend, do_deactivate_user, do_reactivate_user).
import { requireRealmOwner } from '../../access/roles';
import { checkBotNameAvailable, checkCanCreateBot } from '../../access/bots';
import { subscriberViewers } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent } from '../../events/send';
import { deleteQueuesOfUser } from '../../events/queues';
import type { Realm } from '../../models/realm';
import { isOwner, type User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import { accessUserForAdmin, isLastOwner } from '../../access/users';

/**
 * DELETE /users/{user_id} (upstream's deactivate_user_backend): the target through
 * accessUserForAdmin (no bots: "No such user"; "User is deactivated"; "Insufficient permission"),
 * an owner only by an owner ("Must be an organization owner"), never the only owner ("Cannot
 * deactivate the only organization owner"). Then doDeactivateUser.
 */
export const checkDeactivateUser = async (caller: User, realm: Realm, userId: number): Promise<void> => {
  const target = await accessUserForAdmin(caller, userId);
  if (isOwner(target)) requireRealmOwner(caller);
  if (await isLastOwner(target)) throw new BadRequestError('Cannot deactivate the only organization owner');
  await doDeactivateUser(realm, target);
};

/** Upstream's CannotDeactivateLastUserError. */
const cannotDeactivateLast = (isLastOwner: boolean) => {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError(`Cannot deactivate the only ${entity}.`, {
    statusCode: 400,
    code: ErrorCode.CANNOT_DEACTIVATE_LAST_USER,
    data: { is_last_owner: isLastOwner, entity },
  });
};

/**
 * DELETE /users/me (upstream's deactivate_user_own_backend): refused for the organization's only
 * active user and for its only owner (CANNOT_DEACTIVATE_LAST_USER, "Cannot deactivate the only
 * user." / "Cannot deactivate the only organization owner."). Then doDeactivateUser.
 */
export const checkDeactivateOwnUser = async (caller: User, realm: Realm): Promise<void> => {
  const users = await usersStore.listOfRealm(caller.realmId);
  if (users.filter((u) => u.isActive).length === 1) throw cannotDeactivateLast(false);
  if (await isLastOwner(caller)) throw cannotDeactivateLast(true);
  await doDeactivateUser(realm, caller);
};

/** Sends peer_add / peer_remove for one user's subscriptions, per channel to who may see its subscribers. */
const notifyPeers = async (realmId: number, op: 'peer_add' | 'peer_remove', userId: number, channelIds: number[]): Promise<void> => {
  if (channelIds.length === 0) return;
  const groups = await RealmGroups.load(realmId);
  for (const channelId of channelIds) {
    const channel = await channelsStore.getChannel(realmId, channelId);
    if (!channel) continue;
    const subscribers = new Set(await channelsStore.listSubscriberIdsOfChannel(channelId));
    const watchers = await subscriberViewers(channel, subscribers, groups);
    const audience = 'users' in watchers ? { users: watchers.users.filter((id) => id !== userId) } : watchers;
    if ('users' in audience && audience.users.length === 0) continue;
    await sendEvent(realmId, { type: 'subscription', op, stream_ids: [channelId], user_ids: [userId] }, audience);
  }
};

/**
 * Upstream's do_deactivate_user: marks the user inactive if they still are ("User is
 * deactivated" when a concurrent request came first), so from then on every request with their
 * API key is refused (401 USER_DEACTIVATED: authentication reads the user), their event queues
 * included; takes their subscriptions out of the subscriber index; deletes their event queues (as
 * upstream: after a reactivation their clients get BAD_EVENT_QUEUE_ID and register again); then deactivates each active
 * bot they own the same way. Emits `realm_user` update {is_active: false} to the organization and
 * `subscription` peer_remove per channel to who sees its subscribers.
 */
export const doDeactivateUser = async (realm: Realm, target: User): Promise<void> => {
  if (!(await usersStore.setIf(target.realmId, target.id, 'isActive', true, false))) throw new BadRequestError('User is deactivated');
  const subs = await channelsStore.listSubscriptionsOfUser(target.id);
  const changed = await channelsStore.setSubscriptionsUserActive(subs, false);
  await sendEvent(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: false } }, 'realm');
  await notifyPeers(
    realm.id,
    'peer_remove',
    target.id,
    changed.map((s) => s.channelId),
  );
  await deleteQueuesOfUser(target.id);
  if (target.isBot) return;
  const bots = (await usersStore.listOfRealm(realm.id)).filter((u) => u.isBot && u.isActive && u.botOwnerId === target.id);
  for (const bot of bots) {
    try {
      await doDeactivateUser(realm, bot);
    } catch (error) {
      // A bot deactivated meanwhile is what was wanted.
      if (!(error instanceof BadRequestError)) throw error;
    }
  }
};

/**
 * POST /users/{user_id}/reactivate (upstream's reactivate_user_backend): the target through
 * accessUserForAdmin (deactivated users and bots allowed); for a bot, the caller may create its
 * type (checkCanCreateBot) and no active user has its name (checkBotNameAvailable). Then
 * doReactivateUser.
 */
export const checkReactivateUser = async (caller: User, realm: Realm, userId: number): Promise<void> => {
  const target = await accessUserForAdmin(caller, userId, { allowDeactivated: true, allowBots: true });
  if (target.isBot) {
    await checkCanCreateBot(caller, realm, target.botType ?? 0);
    await checkBotNameAvailable(realm.id, target.fullName, { isActivation: true });
  }
  await doReactivateUser(realm, target);
};

/**
 * Upstream's do_reactivate_user: marks the user active if they are not ("User is already active."
 * otherwise, also for a concurrent reactivation), puts their subscriptions back into the
 * subscriber index. Emits `realm_user` update {is_active: true} to the organization and
 * `subscription` peer_add per channel to who sees its subscribers.
 */
export const doReactivateUser = async (realm: Realm, target: User): Promise<void> => {
  if (!(await usersStore.setIf(target.realmId, target.id, 'isActive', false, true))) throw new BadRequestError('User is already active.');
  const subs = await channelsStore.listSubscriptionsOfUser(target.id);
  const changed = await channelsStore.setSubscriptionsUserActive(subs, true);
  await sendEvent(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: true } }, 'realm');
  await notifyPeers(
    realm.id,
    'peer_add',
    target.id,
    changed.map((s) => s.channelId),
  );
};
