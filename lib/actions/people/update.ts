// Administering people, as upstream's zerver/views/users.py and zerver/actions/users.py: creating
// an account (POST /users), changing a user's name and role (PATCH /users/{id}), deactivating and
// reactivating (DELETE /users/{id}, DELETE /users/me, POST /users/{id}/reactivate), and a new API
// key (POST /users/me/api_key/regenerate).
import { requireRealmOwner } from '../../access/roles';
import { BadRequestError, UnauthorizedPrincipalError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Realm } from '../../models/realm';
import { checkFullName, isAdmin, Role, type User } from '../../models/user';
import * as usersStore from '../../store/users';
import { checkUpdateProfileDataOf, type ProfileDataItem } from './profile-data';
import { doAddGroupMember, doRemoveGroupMember, systemGroupIds, systemGroupNamesForRole } from '../groups/role-groups';
import { LostRaceError, retryLostRaces } from '../retry';
import { accessUserForAdmin, isLastOwner } from '../../access/users';

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
    if (p.role === Role.OWNER || target.role === Role.OWNER) requireRealmOwner(caller);
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
