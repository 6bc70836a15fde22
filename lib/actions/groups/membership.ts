// A user group's members and subgroups: changing them (upstream's update_user_group_backend,
// update_subgroups_of_user_group) and reading them (get_user_group_members,
// get_is_user_group_member, get_subgroups_of_user_group).
import {
  accessUserGroupForUpdate,
  accessUserGroupToReadMembership,
  RealmGroups,
  recursiveSubgroupIds,
  accessForMembership,
} from '../../access/user-groups';
import { accessActiveUsers } from '../../access/users';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Realm } from '../../models/realm';
import { NOTIFICATION_BOT_EMAIL, type User } from '../../models/user';
import type { UserGroupEvent } from '../../models/event';
import { type UserGroup } from '../../models/user-group';
import * as groupsStore from '../../store/user-groups';
import * as usersStore from '../../store/users';
import { sendInternalMessage } from '../messages/send';
import { LostRaceError, retryLostRaces } from '../retry';
import { forMembers } from '../requiring';
import { checkActiveUserIds, checkSubgroupIds, usedNonSystemGroups, conflictCodes } from './manage';

/** Changes of a group's direct members and subgroups (POST /user_groups/{id}/members and /subgroups). */
export type MembershipChange = { add: number[]; delete: number[]; addSubgroups: number[]; deleteSubgroups: number[] };

const unique = (ids: number[]): number[] => [...new Set(ids)];

/** Notification Bot's direct message to each other human user added to or removed from a group. */
const sendMembershipNotices = async (
  realm: Realm,
  actingUser: User,
  group: UserGroup,
  userIds: number[],
  added: boolean,
): Promise<void> => {
  const others = userIds.filter((id) => id !== actingUser.id);
  if (others.length === 0) return;
  const users = (await usersStore.getMany(realm.id, others)).filter((u) => !u.isBot && u.isActive);
  if (users.length === 0) return;
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) return;
  const actor = `@_**${actingUser.fullName}|${actingUser.id}**`;
  const content = added ? `${actor} added you to the group @_*${group.name}*.` : `${actor} removed you from the group @_*${group.name}*.`;
  for (const target of users.sort((a, b) => a.id - b.id)) await sendInternalMessage(realm, bot, { user: target }, content);
};

/**
 * POST /user_groups/{id}/members (add, delete, add_subgroups, delete_subgroups) and POST
 * /user_groups/{id}/subgroups (add, delete), as upstream's update_user_group_backend and
 * update_subgroups_of_user_group: members and administrators only; nothing to do: `nothingToDo`.
 * Checks, in upstream's order and all before writing: adding members, the caller's
 * can_join_group (for themselves alone) or can_add_members_group (or managing the group), active
 * users of the organization ("Invalid user ID: N"), none a member already ("User N is already a
 * member of this group"); removing members, active users, then can_leave_group (themselves alone)
 * or can_remove_members_group, each a direct member ("There is no member 'N' in this user
 * group"); adding subgroups, can_add_members_group on an active group, groups of the organization
 * ("Invalid user group ID: N"), not already subgroups, and no cycle; removing subgroups,
 * can_manage_group, each a direct subgroup. System groups are refused ("Insufficient
 * permission"). Writes the new members and subgroups conditioned on the group's version (a
 * concurrent change makes the checks run again) with the new subgroups marked used. Emits
 * `user_group` add_members, remove_members, add_subgroups and remove_subgroups to the
 * organization, then Notification Bot's messages to the users added or removed by someone else.
 */
export const checkUpdateUserGroupMembership = forMembers(
  async (user: User, realm: Realm, groupId: number, change: MembershipChange, nothingToDo: string): Promise<void> => {
    const add = unique(change.add);
    const remove = unique(change.delete);
    const addSubgroups = unique(change.addSubgroups);
    const removeSubgroups = unique(change.deleteSubgroups);
    if (add.length + remove.length + addSubgroups.length + removeSubgroups.length === 0) throw new BadRequestError(nothingToDo);
    const onlySelf = (ids: number[]) => ids.length === 1 && ids[0] === user.id;

    const group = await retryLostRaces(async () => {
      const groups = await RealmGroups.load(realm.id, { consistent: true });
      let group: UserGroup | undefined;
      if (add.length > 0) {
        group = accessForMembership(realm, groups, user, groupId, 'can_add_members_group', onlySelf(add) ? 'can_join_group' : undefined);
        await checkActiveUserIds(realm.id, add);
        const already = add.find((id) => group!.members.includes(id));
        if (already !== undefined) throw new BadRequestError(`User ${already} is already a member of this group`);
      }
      if (remove.length > 0) {
        await checkActiveUserIds(realm.id, remove);
        group = accessForMembership(
          realm,
          groups,
          user,
          groupId,
          'can_remove_members_group',
          onlySelf(remove) ? 'can_leave_group' : undefined,
        );
        const missing = remove.find((id) => !group!.members.includes(id));
        if (missing !== undefined) throw new BadRequestError(`There is no member '${missing}' in this user group`);
      }
      if (addSubgroups.length > 0) {
        group = accessUserGroupForUpdate(realm, groups, user, groupId, { allowDeactivated: false, permission: 'can_add_members_group' });
        checkSubgroupIds(groups, addSubgroups);
        const already = addSubgroups.find((id) => group!.directSubgroupIds.includes(id));
        if (already !== undefined) throw new BadRequestError(`User group ${already} is already a subgroup of this group.`);
        const below = new Set(addSubgroups.flatMap((id) => [id, ...recursiveSubgroupIds(groups, id)]));
        if (below.has(groupId)) throw new BadRequestError(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
      }
      if (removeSubgroups.length > 0) {
        group = accessUserGroupForUpdate(realm, groups, user, groupId, { allowDeactivated: false });
        const unknown = removeSubgroups.find((id) => !groups.byId.has(id));
        if (unknown !== undefined) throw new BadRequestError(`Invalid user group ID: ${unknown}`);
        const missing = removeSubgroups.find((id) => !group!.directSubgroupIds.includes(id));
        if (missing !== undefined) throw new BadRequestError(`User group ${missing} is not a subgroup of this group.`);
      }
      const current = group!;
      const members = [...current.members.filter((id) => !remove.includes(id)), ...add];
      const directSubgroupIds = [...current.directSubgroupIds.filter((id) => !removeSubgroups.includes(id)), ...addSubgroups];
      try {
        await groupsStore.setGroupMembership(
          realm.id,
          groupId,
          { members, directSubgroupIds },
          current.version ?? 0,
          usedNonSystemGroups(groups, addSubgroups),
        );
      } catch (error) {
        const codes = conflictCodes(error);
        if (codes?.[0] === 'ConditionalCheckFailed' || codes?.includes('TransactionConflict')) throw new LostRaceError();
        if (codes) throw new BadRequestError('User group is deactivated.');
        throw error;
      }
      return current;
    });

    const send = (event: UserGroupEvent) => sendEvent(realm.id, event, 'realm');
    if (add.length > 0) await send({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: add });
    if (remove.length > 0) await send({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: remove });
    if (addSubgroups.length > 0)
      await send({ type: 'user_group', op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: addSubgroups });
    if (removeSubgroups.length > 0)
      await send({ type: 'user_group', op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: removeSubgroups });
    await sendMembershipNotices(realm, user, group, add, true);
    await sendMembershipNotices(realm, user, group, remove, false);
  },
);

/** GET /user_groups/{id}/members: the group's members, recursively unless `directOnly`, ascending. */
export const getUserGroupMembers = forMembers(async (user: User, groupId: number, directOnly: boolean): Promise<number[]> => {
  const groups = await RealmGroups.load(user.realmId);
  const group = accessUserGroupToReadMembership(groups, groupId);
  const ids = directOnly ? group.members : [...groups.membersOf(group.id)];
  return [...new Set(ids)].sort((a, b) => a - b);
});

/**
 * GET /user_groups/{id}/members/{user_id}: whether an active user of the organization ("No such
 * user") is in the group, recursively unless `directOnly`.
 */
export const isUserGroupMember = forMembers(async (user: User, groupId: number, userId: number, directOnly: boolean): Promise<boolean> => {
  const groups = await RealmGroups.load(user.realmId);
  const group = accessUserGroupToReadMembership(groups, groupId);
  await accessActiveUsers(user.realmId, [userId], { unknown: () => new BadRequestError('No such user') });
  return directOnly ? group.members.includes(userId) : groups.isMember(group.id, userId);
});

/** GET /user_groups/{id}/subgroups: the group's subgroups, recursively unless `directOnly`, ascending. */
export const getUserGroupSubgroups = forMembers(async (user: User, groupId: number, directOnly: boolean): Promise<number[]> => {
  const groups = await RealmGroups.load(user.realmId);
  const group = accessUserGroupToReadMembership(groups, groupId);
  return directOnly ? [...group.directSubgroupIds].sort((a, b) => a - b) : recursiveSubgroupIds(groups, group.id);
});
