// Direct membership of user groups as accounts are created and change role: the system group of
// each role (upstream's get_system_user_group_for_user) and the full members group, and the
// groups an invitation names. No permission checks: the callers (creating an account, changing a
// role) made theirs.
import { nowSeconds } from '../../clock';
import { sendEvent } from '../../events/send';
import type { Realm } from '../../models/realm';
import { Role, type User } from '../../models/user';
import * as groupsStore from '../../store/user-groups';
import { LostRaceError, retryLostRaces } from '../retry';

/** The system group whose direct member a user of this role is (upstream's get_system_user_group_for_user). */
const ROLE_GROUP: Record<number, string> = {
  [Role.OWNER]: 'role:owners',
  [Role.ADMINISTRATOR]: 'role:administrators',
  [Role.MODERATOR]: 'role:moderators',
  [Role.MEMBER]: 'role:members',
  [Role.GUEST]: 'role:everyone',
};

/**
 * Whether a member is still provisional (upstream's is_provisional_member): joined less than the
 * organization's waiting period ago, so not yet in role:fullmembers.
 */
const isProvisional = (realm: Realm, user: Pick<User, 'dateJoined'>): boolean =>
  user.dateJoined + realm.waitingPeriodThreshold * 86400 > nowSeconds();

/** The system groups a user of `role` is a direct member of. */
export const systemGroupNamesForRole = (realm: Realm, user: Pick<User, 'dateJoined'>, role: number): string[] => [
  ROLE_GROUP[role],
  ...(role === Role.MEMBER && !isProvisional(realm, user) ? ['role:fullmembers'] : []),
];

/** The ids of an organization's system groups with these names. */
export const systemGroupIds = async (realmId: number, names: string[]): Promise<number[]> => {
  const groups = await groupsStore.listGroupsOfRealm(realmId);
  return names.map((name) => {
    const group = groups.find((g) => g.isSystemGroup && g.name === name);
    if (!group) throw new Error(`organization ${realmId} has no system group ${name}`);
    return group.id;
  });
};

/**
 * Makes a user a direct member of a group, unless they are one already (then nothing is written
 * or sent). The write is conditioned on the member list read, so concurrent additions (two
 * accounts created at once) both land. Emits `user_group` add_members to the organization.
 */
export const doAddGroupMember = async (realmId: number, groupId: number, userId: number): Promise<void> => {
  const added = await retryLostRaces(async () => {
    const group = await groupsStore.getGroup(realmId, groupId, { consistent: true });
    if (!group || group.members.includes(userId)) return false;
    if (!(await groupsStore.addGroupMembers(realmId, groupId, [userId], group.members.length))) throw new LostRaceError();
    return true;
  });
  if (added) await sendEvent(realmId, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] }, 'realm');
};

/**
 * Removes a user from a group's direct members, if they are one (else nothing is written or
 * sent). Emits `user_group` remove_members to the organization.
 */
export const doRemoveGroupMember = async (realmId: number, groupId: number, userId: number): Promise<void> => {
  const removed = await retryLostRaces(async () => {
    const group = await groupsStore.getGroup(realmId, groupId, { consistent: true });
    const index = group?.members.indexOf(userId) ?? -1;
    if (index < 0) return false;
    if (!(await groupsStore.removeGroupMember(realmId, groupId, userId, index))) throw new LostRaceError();
    return true;
  });
  if (removed) await sendEvent(realmId, { type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: [userId] }, 'realm');
};
