import { REALM_GROUP_SETTINGS, type GroupSettingValue, type Realm } from './realm';

/** The permission settings of a named user group, in upstream's (alphabetical) order. */
export const GROUP_SETTING_NAMES = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupSettingName = (typeof GROUP_SETTING_NAMES)[number];

/** Whether a setting may name the role:everyone group (upstream's allow_everyone_group). */
export const GROUP_SETTING_ALLOWS_EVERYONE: Record<GroupSettingName, boolean> = {
  can_add_members_group: false,
  can_join_group: false,
  can_leave_group: true,
  can_manage_group: false,
  can_mention_group: true,
  can_remove_members_group: false,
};

/**
 * A named user group as stored. `groupSettings` holds wire-format group-setting values (a group
 * id, or an anonymous group `{direct_members, direct_subgroups}`); `version` rises with every
 * write that starts using the group, so a deactivation can tell that its checks are stale.
 */
export type UserGroup = {
  id: number;
  realmId: number;
  name: string;
  description: string;
  members: number[];
  directSubgroupIds: number[];
  isSystemGroup: boolean;
  deactivated: boolean;
  creatorId: number | null;
  dateCreated: number | null;
  groupSettings: Record<GroupSettingName, GroupSettingValue>;
  version?: number;
};

export type AnonymousGroup = { direct_members: number[]; direct_subgroups: number[] };

const sortedNumbers = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);

/** A group-setting value as the API shows it (anonymous groups with sorted ids). */
export const toApiGroupSettingValue = (value: GroupSettingValue): GroupSettingValue =>
  typeof value === 'number'
    ? value
    : { direct_members: sortedNumbers(value.direct_members), direct_subgroups: sortedNumbers(value.direct_subgroups) };

/** The API dict of a group (GET /user_groups, register's realm_user_groups). */
export const toApiUserGroup = (group: UserGroup): Record<string, unknown> => ({
  id: group.id,
  name: group.name,
  creator_id: group.creatorId,
  date_created: group.dateCreated,
  description: group.description,
  members: sortedNumbers(group.members),
  direct_subgroup_ids: sortedNumbers(group.directSubgroupIds),
  is_system_group: group.isSystemGroup,
  ...Object.fromEntries(GROUP_SETTING_NAMES.map((name) => [name, toApiGroupSettingValue(group.groupSettings[name])])),
  deactivated: group.deactivated,
});

/** The id of a system group of the organization (`role:members`, ...). */
const systemGroupId = (groups: UserGroup[], name: string): number | undefined => groups.find((g) => g.isSystemGroup && g.name === name)?.id;

/**
 * An organization's value of a group setting, by wire name (REALM_GROUP_SETTINGS): the stored one,
 * else upstream's default system group for the setting (undefined if the organization has no such
 * group). The one computation of it: permission checks, register and the settings' updates use it.
 */
export const realmGroupSetting = (realm: Realm, groups: UserGroup[], wireName: string): GroupSettingValue | undefined => {
  const setting = REALM_GROUP_SETTINGS[wireName];
  const stored = realm.groupSettings[setting.stored];
  return stored ?? systemGroupId(groups, setting.defaultGroup);
};

/** The ids of the groups the user belongs to, directly or through subgroups (active groups only). */
export const groupIdsOfUser = (userId: number, groups: UserGroup[]): Set<number> => {
  const active = groups.filter((g) => !g.deactivated);
  const result = new Set(active.filter((g) => g.members.includes(userId)).map((g) => g.id));
  // A group contains its subgroups' members: walk up from the direct memberships.
  for (let changed = true; changed;) {
    changed = false;
    for (const group of active) {
      if (!result.has(group.id) && group.directSubgroupIds.some((id) => result.has(id))) {
        result.add(group.id);
        changed = true;
      }
    }
  }
  return result;
};

/** Whether a user with these memberships is in a group-setting value (a group, or an anonymous group). */
export const inGroupSetting = (value: GroupSettingValue | undefined, userId: number, groupIds: Set<number>): boolean => {
  if (value === undefined) return false;
  if (typeof value === 'number') return groupIds.has(value);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => groupIds.has(id));
};
