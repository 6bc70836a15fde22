// Group membership and the permission checks built on it. A group-setting value is a group id or
// an anonymous group; membership is resolved through subgroups recursively, as upstream's
// recursive CTE does (system groups nest: owners ⊂ administrators ⊂ moderators ⊂ members ⊂ everyone).
import { BadRequestError } from '../errors';
import { REALM_GROUP_SETTINGS, type GroupSettingValue, type Realm } from '../models/realm';
import { isGuest, type User } from '../models/user';
import { GROUP_SETTING_ALLOWS_EVERYONE, realmGroupSetting, type UserGroup } from '../models/user-group';
import * as groupsStore from '../store/user-groups';
import { requireMemberOrAdmin } from './roles';

/** The groups of one organization, indexed for membership checks. */
export class RealmGroups {
  readonly byId: Map<number, UserGroup>;

  constructor(readonly groups: UserGroup[]) {
    this.byId = new Map(groups.map((g) => [g.id, g]));
  }

  static async load(realmId: number, opts: { consistent?: boolean } = {}): Promise<RealmGroups> {
    return new RealmGroups(await groupsStore.listGroupsOfRealm(realmId, opts));
  }

  /** The system group with this name (role:nobody, role:everyone, ...). */
  systemGroup(name: string): UserGroup {
    const group = this.groups.find((g) => g.isSystemGroup && g.name === name);
    if (!group) throw new Error(`organization has no system group ${name}`);
    return group;
  }

  /** Whether the user is a member of the group or of any of its subgroups, recursively. */
  isMember(groupId: number, userId: number, seen = new Set<number>()): boolean {
    if (seen.has(groupId)) return false;
    seen.add(groupId);
    const group = this.byId.get(groupId);
    if (!group) return false;
    if (group.members.includes(userId)) return true;
    return group.directSubgroupIds.some((sub) => this.isMember(sub, userId, seen));
  }

  /** The members of a group-setting value: the group's or the anonymous group's, through subgroups recursively. */
  membersOf(value: GroupSettingValue | undefined): Set<number> {
    const members = new Set<number>();
    const seen = new Set<number>();
    const addGroup = (groupId: number): void => {
      if (seen.has(groupId)) return;
      seen.add(groupId);
      const group = this.byId.get(groupId);
      if (!group) return;
      for (const id of group.members) members.add(id);
      for (const sub of group.directSubgroupIds) addGroup(sub);
    };
    if (typeof value === 'number') addGroup(value);
    else if (value) {
      for (const id of value.direct_members) members.add(id);
      for (const sub of value.direct_subgroups) addGroup(sub);
    }
    return members;
  }

  /** Whether the user is in a group-setting value (a group, or an anonymous group's members and subgroups). */
  isInSetting(value: GroupSettingValue | undefined, userId: number): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value === 'number') return this.isMember(value, userId);
    return value.direct_members.includes(userId) || value.direct_subgroups.some((sub) => this.isMember(sub, userId));
  }

  /** Upstream's user_has_permission_for_group_setting: guests only where role:everyone is allowed. */
  hasPermission(user: User, value: GroupSettingValue | undefined, allowEveryone: boolean): boolean {
    if (!allowEveryone && isGuest(user)) return false;
    return this.isInSetting(value, user.id);
  }
}

/**
 * Whether the user holds an organization-level group permission (can_manage_all_groups, ..., by
 * wire name); guests never hold a setting whose value may not be role:everyone (upstream's
 * allow_everyone_group=False).
 */
export const hasRealmPermission = (realm: Realm, groups: RealmGroups, user: User, setting: string): boolean =>
  groups.hasPermission(user, realmGroupSetting(realm, groups.groups, setting), REALM_GROUP_SETTINGS[setting].allowEveryone);

/**
 * Upstream's access_user_group_for_update: the group of the caller's organization (else "Invalid
 * user group"), active unless `allowDeactivated` (else "User group is deactivated."), not a system
 * group, and managed by the caller through the organization's can_manage_all_groups or the group's
 * can_manage_group (else "Insufficient permission"). With another `permission` (can_add_members_group,
 * can_remove_members_group, can_join_group, can_leave_group), that group setting also grants
 * access (can_manage_group always does).
 */
export const accessUserGroupForUpdate = (
  realm: Realm,
  groups: RealmGroups,
  user: User,
  groupId: number,
  opts: {
    allowDeactivated: boolean;
    permission?: 'can_manage_group' | 'can_add_members_group' | 'can_remove_members_group' | 'can_join_group' | 'can_leave_group';
  },
): UserGroup => {
  const group = groups.byId.get(groupId);
  if (!group) throw new BadRequestError('Invalid user group');
  if (!opts.allowDeactivated && group.deactivated) throw new BadRequestError('User group is deactivated.');
  if (group.isSystemGroup) throw new BadRequestError('Insufficient permission');
  if (hasRealmPermission(realm, groups, user, 'can_manage_all_groups')) return group;
  if (groups.hasPermission(user, group.groupSettings.can_manage_group, GROUP_SETTING_ALLOWS_EVERYONE.can_manage_group)) return group;
  const permission = opts.permission ?? 'can_manage_group';
  if (
    permission !== 'can_manage_group' &&
    groups.hasPermission(user, group.groupSettings[permission], GROUP_SETTING_ALLOWS_EVERYONE[permission])
  ) {
    return group;
  }
  throw new BadRequestError('Insufficient permission');
};

/**
 * Upstream's access_user_group_to_read_membership: any group of the caller's organization (system
 * and deactivated ones included), else "Invalid user group".
 */
export const accessUserGroupToReadMembership = (groups: RealmGroups, groupId: number): UserGroup => {
  const group = groups.byId.get(groupId);
  if (!group) throw new BadRequestError('Invalid user group');
  return group;
};

/** A group's subgroups, recursively (upstream's get_recursive_subgroups without the group itself), ascending. */
export const recursiveSubgroupIds = (groups: RealmGroups, groupId: number): number[] => {
  const seen = new Set<number>();
  const visit = (id: number): void => {
    for (const sub of groups.byId.get(id)?.directSubgroupIds ?? []) {
      if (seen.has(sub)) continue;
      seen.add(sub);
      visit(sub);
    }
  };
  visit(groupId);
  seen.delete(groupId);
  return [...seen].sort((a, b) => a - b);
};

// ---------------------------------------------------------------------------------------------
// Creation

/** Upstream's require_user_group_create_permission: members and administrators allowed by can_create_groups. */
export const accessUserGroupCreation = async (user: User, realm: Realm): Promise<RealmGroups> => {
  requireMemberOrAdmin(user);
  const groups = await RealmGroups.load(realm.id, { consistent: true });
  if (!hasRealmPermission(realm, groups, user, 'can_create_groups')) throw new BadRequestError('Insufficient permission');
  return groups;
};

/**
 * Upstream's access_user_group_for_update with a fallback: a user acting on themselves is allowed
 * by `own` (can_join_group, can_leave_group) or else by `anyone`'s setting.
 */
export const accessForMembership = (
  realm: Realm,
  groups: RealmGroups,
  user: User,
  groupId: number,
  permission: 'can_add_members_group' | 'can_remove_members_group',
  ownPermission: 'can_join_group' | 'can_leave_group' | undefined,
): UserGroup => {
  if (ownPermission !== undefined) {
    try {
      return accessUserGroupForUpdate(realm, groups, user, groupId, { allowDeactivated: true, permission: ownPermission });
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
    }
  }
  return accessUserGroupForUpdate(realm, groups, user, groupId, { allowDeactivated: true, permission });
};
