// Administering people, as upstream's zerver/views/users.py and zerver/actions/users.py: creating
// an account (POST /users), changing a user's name and role (PATCH /users/{id}), deactivating and
// reactivating (DELETE /users/{id}, DELETE /users/me, POST /users/{id}/reactivate), and a new API
// key (POST /users/me/api_key/regenerate).
import { checkBotNameAvailable, checkCanCreateBot } from '../../access/bots';
import { subscriberViewers } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { ApiError, BadRequestError, ErrorCode, UnauthorizedPrincipalError } from '../../errors';
import { sendEvent } from '../../events/send';
import { deleteQueuesOfUser } from '../../events/queues';
import type { Realm } from '../../models/realm';
import { checkFullName, isAdmin, isOwner, isValidEmail, Role, type User } from '../../models/user';
import { generateApiKey } from '../../passwords';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import { doCreateUser, EMAIL_IN_USE } from './create';
import { checkUpdateProfileDataOf, type ProfileDataItem } from './profile-data';
import { doAddGroupMember, doRemoveGroupMember, systemGroupIds, systemGroupNamesForRole } from '../groups/role-groups';
import { forAdministrators, forHumans } from '../requiring';
import { LostRaceError, retryLostRaces } from '../retry';
import { accessUserForAdmin, isLastOwner } from '../../access/users';

/** Upstream's PASSWORD_MIN_LENGTH (check_password_strength). */
const PASSWORD_MIN_LENGTH = 6;

/** Whether a new account's password is long enough (upstream's check_password_strength; "The password is too weak." otherwise). */
export const isStrongEnoughPassword = (password: string): boolean => [...password].length >= PASSWORD_MIN_LENGTH;

/** Upstream's OrganizationOwnerRequiredError. */
const ownerRequired = () => new UnauthorizedPrincipalError('Must be an organization owner');

export type CreateUserParams = { email: string; password: string; fullName: string };

/**
 * POST /users (upstream's create_user_backend): administrators only ("Must be an organization
 * administrator"), then the caller's can_create_users ("User not authorized to create users");
 * the name (checkFullName), the email ("Bad name or username"), not in use ("Email is already in
 * use."), the password's strength ("The password is too weak."). Then doCreateUser as a member,
 * with the caller acting. Returns the new user's id.
 */
export const checkCreateUser = forAdministrators(async (caller: User, realm: Realm, p: CreateUserParams): Promise<number> => {
  if (caller.canCreateUsers !== true) throw new BadRequestError('User not authorized to create users');
  const fullName = checkFullName(p.fullName);
  const email = p.email.trim();
  if (!isValidEmail(email)) throw new BadRequestError('Bad name or username');
  if (await usersStore.isEmailTaken(realm.id, email)) throw new BadRequestError(EMAIL_IN_USE);
  if (!isStrongEnoughPassword(p.password)) throw new BadRequestError('The password is too weak.');
  const user = await doCreateUser(realm, { email, fullName, role: Role.MEMBER, password: p.password, actingUser: caller });
  return user.id;
});

export type UpdateUserParams = { fullName?: string; role?: number; profileData?: ProfileDataItem[] };

/**
 * PATCH /users/{user_id} (upstream's update_user_backend): the target through accessUserForAdmin
 * (deactivated users and bots allowed). A new role: making or unmaking an owner needs an owner
 * ("Must be an organization owner"), any other change an administrator ("Must be an
 * organization administrator"), and the only owner keeps the role ("The owner permission cannot
 * be removed from the only organization owner."); then doChangeUserRole. A new, non-blank full
 * name: checkFullName, then doChangeFullName. Profile data: checkUpdateProfileDataOf. Each change
 * is made after its own checks, as upstream's.
 */
export const checkUpdateUser = async (caller: User, realm: Realm, userId: number, p: UpdateUserParams): Promise<void> => {
  const target = await accessUserForAdmin(caller, userId, { allowDeactivated: true, allowBots: true });
  if (p.role !== undefined && p.role !== target.role) {
    if ((p.role === Role.OWNER || target.role === Role.OWNER) && !isOwner(caller)) throw ownerRequired();
    if (!isAdmin(caller)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
    if (target.role === Role.OWNER && (await isLastOwner(target))) {
      throw new BadRequestError('The owner permission cannot be removed from the only organization owner.');
    }
    await doChangeUserRole(realm, target, p.role as Role);
  }
  if (p.fullName !== undefined && p.fullName !== target.fullName && p.fullName.trim() !== '') {
    await doChangeFullName(realm, target, checkFullName(p.fullName));
  }
  if (p.profileData !== undefined) await checkUpdateProfileDataOf(caller, target, realm, p.profileData);
};

/**
 * Upstream's do_change_user_role: writes the role if it is still the one read (a concurrent
 * change makes this one start again from a fresh read), then moves the user between the role's
 * system groups. Emits `realm_user` update {role} to the organization, then `user_group`
 * remove_members / add_members for the groups left and joined.
 */
export const doChangeUserRole = async (realm: Realm, target: User, role: Role): Promise<void> => {
  const from = await retryLostRaces(async () => {
    const current = (await usersStore.get(target.realmId, target.id, { consistent: true }))!;
    if (current.role === role) return undefined;
    if (!(await usersStore.setIf(target.realmId, target.id, 'role', current.role, role))) throw new LostRaceError();
    return current.role;
  });
  if (from === undefined) return;
  await sendEvent(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, 'realm');
  const before = systemGroupNamesForRole(realm, target, from);
  const after = systemGroupNamesForRole(realm, target, role);
  const [leftIds, joinedIds] = await Promise.all([
    systemGroupIds(
      realm.id,
      before.filter((n) => !after.includes(n)),
    ),
    systemGroupIds(
      realm.id,
      after.filter((n) => !before.includes(n)),
    ),
  ]);
  for (const groupId of leftIds) await doRemoveGroupMember(realm.id, groupId, target.id);
  for (const groupId of joinedIds) await doAddGroupMember(realm.id, groupId, target.id);
};

/**
 * Upstream's do_change_full_name: writes the name and its mention index key together (a
 * concurrent change is read again). Emits `realm_user` update {full_name} to the organization.
 */
export const doChangeFullName = async (realm: Realm, target: User, fullName: string): Promise<void> => {
  const changed = await retryLostRaces(async () => {
    const current = (await usersStore.get(target.realmId, target.id, { consistent: true }))!;
    if (current.fullName === fullName) return false;
    if (!(await usersStore.setFullName(target.realmId, target.id, current.fullName, fullName))) throw new LostRaceError();
    return true;
  });
  if (changed)
    await sendEvent(realm.id, { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } }, 'realm');
};

/**
 * DELETE /users/{user_id} (upstream's deactivate_user_backend): the target through
 * accessUserForAdmin (no bots: "No such user"; "User is deactivated"; "Insufficient permission"),
 * an owner only by an owner ("Must be an organization owner"), never the only owner ("Cannot
 * deactivate the only organization owner"). Then doDeactivateUser.
 */
export const checkDeactivateUser = async (caller: User, realm: Realm, userId: number): Promise<void> => {
  const target = await accessUserForAdmin(caller, userId);
  if (isOwner(target) && !isOwner(caller)) throw ownerRequired();
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

/**
 * POST /users/me/api_key/regenerate (upstream's regenerate_api_key, human users only: "This
 * endpoint does not accept bot requests."): replaces the caller's API key, conditioned on the
 * key they authenticated with, so the old key stops working at once. Returns the new key.
 */
export const doRegenerateApiKey = forHumans(async (caller: User): Promise<string> => {
  const apiKey = generateApiKey();
  if (!(await replaceApiKey(caller, caller.apiKey, apiKey))) {
    // A concurrent regeneration replaced the key this request authenticated with.
    throw new BadRequestError('Invalid API key');
  }
  return apiKey;
});

/**
 * Replaces an account's API key if it is still `current`, then ends the account's event queues:
 * a queue authenticates its polls by the credentials that registered it (lib/http/auth.ts
 * authenticatePoll), so the old key's queues must not outlive it. Its clients register again
 * (BAD_EVENT_QUEUE_ID), as upstream's do after a restart. False if the key was not `current`.
 */
export const replaceApiKey = async (user: Pick<User, 'realmId' | 'id'>, current: string, next: string): Promise<boolean> => {
  if (!(await usersStore.setApiKey(user.realmId, user.id, current, next))) return false;
  await deleteQueuesOfUser(user.id);
  return true;
};
