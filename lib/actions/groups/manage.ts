// User groups: listing, creation, updates (name, description, settings, reactivation) and
// deactivation, with upstream's checks in upstream's order (zerver/views/user_groups.py,
// zerver/lib/user_groups.py). Group settings are wire-format group-setting values.
import { nowSeconds } from '../../clock';
import { accessUserGroupCreation, accessUserGroupForUpdate, RealmGroups } from '../../access/user-groups';
import { accessActiveUsers } from '../../access/users';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { GroupSettingValue, Realm } from '../../models/realm';
import { type User } from '../../models/user';
import {
  GROUP_SETTING_ALLOWS_EVERYONE,
  GROUP_SETTING_NAMES,
  toApiGroupSettingValue,
  toApiUserGroup,
  type AnonymousGroup,
  type GroupSettingName,
  type UserGroup,
} from '../../models/user-group';
import { allocateIds } from '../../store/common';
import * as channelsStore from '../../store/channels';
import * as realmsStore from '../../store/realms';
import * as groupsStore from '../../store/user-groups';
import { LostRaceError, retryLostRaces } from '../retry';
import { forMembers } from '../requiring';

const MAX_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

export type Objection =
  | { type: 'subgroup'; supergroup_ids: number[] }
  | { type: 'channel'; channel_id: number; settings: string[] }
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'realm'; settings: string[] };

/** GET /user_groups: the organization's groups (deactivated ones only on request), by id. Guests and bots are refused. */
export const listUserGroups = forMembers(async (user: User, opts: { includeDeactivated: boolean }): Promise<Record<string, unknown>[]> => {
  const groups = await groupsStore.listGroupsOfRealm(user.realmId);
  return groups
    .filter((g) => opts.includeDeactivated || !g.deactivated)
    .sort((a, b) => a.id - b.id)
    .map(toApiUserGroup);
});

// ---------------------------------------------------------------------------------------------
// Validation shared by creation and updates

/** Upstream's check_user_group_name. */
const checkUserGroupName = (name: string): string => {
  if (name.trim() === '') throw new BadRequestError("User group name can't be empty!");
  if ([...name].length > MAX_NAME_LENGTH) throw new BadRequestError(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`);
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw new BadRequestError(`User group name cannot start with '${prefix}'.`);
  return name;
};

/** Upstream's user_ids_to_users(…, allow_deactivated=False): every id an active user of the organization. */
export const checkActiveUserIds = async (realmId: number, userIds: number[]): Promise<void> => {
  await accessActiveUsers(realmId, userIds, { unknown: ([missing]) => new BadRequestError(`Invalid user ID: ${missing}`) });
};

/** Upstream's parse_group_setting_value: one lone subgroup is that group; an empty anonymous group is role:nobody. */
export const normalizeSettingValue = (value: GroupSettingValue, groups: RealmGroups): GroupSettingValue => {
  if (typeof value === 'number') return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0];
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return groups.systemGroup('role:nobody').id;
  return { direct_members: [...new Set(value.direct_members)], direct_subgroups: [...new Set(value.direct_subgroups)] };
};

/** The named groups a setting value refers to (the group, or an anonymous group's subgroups). */
export const groupsUsedBy = (value: GroupSettingValue): number[] => (typeof value === 'number' ? [value] : value.direct_subgroups);

/** Which values a group setting takes (upstream's GroupPermissionSetting). */
export type GroupSettingRules = { allowNobody: boolean; allowEveryone: boolean; allowedSystemGroups?: string[] };

/**
 * Upstream's access_user_group_for_setting: a group id must name an active group of the
 * organization allowed for the setting (check_setting_configuration_for_system_groups); an
 * anonymous group needs active users and active groups. A setting that takes only some system
 * groups takes no other group ("'<setting>' must be a system user group.").
 */
export const checkGroupSettingValue = async (
  realmId: number,
  groups: RealmGroups,
  setting: string,
  value: GroupSettingValue,
  rules: GroupSettingRules,
): Promise<void> => {
  const systemOnly = rules.allowedSystemGroups !== undefined;
  if (typeof value === 'number') {
    const group = groups.byId.get(value);
    if (!group) throw new BadRequestError('Invalid user group');
    if (group.deactivated) throw new BadRequestError('User group is deactivated.');
    if (systemOnly && !group.isSystemGroup) throw new BadRequestError(`'${setting}' must be a system user group.`);
    if (!group.isSystemGroup) return;
    const refused =
      group.name === 'role:internet' ||
      (group.name === 'role:nobody' && !rules.allowNobody) ||
      (group.name === 'role:everyone' && !rules.allowEveryone) ||
      (rules.allowedSystemGroups !== undefined && !rules.allowedSystemGroups.includes(group.name));
    if (refused) throw new BadRequestError(`'${setting}' setting cannot be set to '${group.name}' group.`);
    return;
  }
  if (systemOnly) throw new BadRequestError(`'${setting}' must be a system user group.`);
  await checkActiveUserIds(realmId, value.direct_members);
  checkSubgroupIds(groups, value.direct_subgroups);
};

/** A user group's own setting (every one of them takes role:nobody). */
const checkSettingValue = (realmId: number, groups: RealmGroups, setting: GroupSettingName, value: GroupSettingValue): Promise<void> =>
  checkGroupSettingValue(realmId, groups, setting, value, { allowNobody: true, allowEveryone: GROUP_SETTING_ALLOWS_EVERYONE[setting] });

/** Subgroup ids: groups of the organization ("Invalid user group ID: N"), not deactivated. */
export const checkSubgroupIds = (groups: RealmGroups, ids: number[]): void => {
  const missing = ids.find((id) => !groups.byId.has(id));
  if (missing !== undefined) throw new BadRequestError(`Invalid user group ID: ${missing}`);
  if (ids.some((id) => groups.byId.get(id)!.deactivated)) throw new BadRequestError('User group is deactivated.');
};

/** Group ids whose use must be recorded on the groups themselves (system groups are never deactivated). */
export const usedNonSystemGroups = (groups: RealmGroups, ids: number[]): number[] =>
  [...new Set(ids)].filter((id) => groups.byId.get(id)?.isSystemGroup === false);

/** Whether two group-setting values are the same (anonymous groups compared as sets). */
export const sameSettingValue = (a: GroupSettingValue, b: GroupSettingValue): boolean => {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]) => x.length === y.length && new Set([...x, ...y]).size === new Set(x).size;
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
};

export const conflictCodes = (error: unknown): string[] | undefined =>
  error instanceof groupsStore.TransactionConflictError ? error.reasons : undefined;

/** Cancelled only because another transaction held an item, no condition failed: safe to send again. */
const isTransactionConflict = (error: unknown): boolean => {
  const codes = conflictCodes(error);
  return codes !== undefined && codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
};

export type CreateUserGroupRequest = {
  name: string;
  description: string;
  members: number[];
  subgroups: number[] | undefined;
  settings: Partial<Record<GroupSettingName, GroupSettingValue>>;
};

/**
 * A new group, once the caller may create groups. Checks, in upstream's order: members are active users of the
 * organization, the name, each given setting, the name is free, the subgroups. Writes the group,
 * its name lock and the use of every group it names in one transaction (so none of them can be
 * deactivated meanwhile). Emits user_group add (and add_subgroups) to the organization.
 */
const createUserGroup = async (user: User, realm: Realm, groups: RealmGroups, request: CreateUserGroupRequest): Promise<number> => {
  await checkActiveUserIds(realm.id, request.members);
  const name = checkUserGroupName(request.name);
  const creatorGroup: AnonymousGroup = { direct_members: [user.id], direct_subgroups: [] };
  const defaults: Record<GroupSettingName, GroupSettingValue> = {
    can_add_members_group: creatorGroup,
    can_join_group: groups.systemGroup('role:nobody').id,
    can_leave_group: groups.systemGroup('role:everyone').id,
    can_manage_group: creatorGroup,
    can_mention_group: groups.systemGroup('role:everyone').id,
    can_remove_members_group: groups.systemGroup('role:nobody').id,
  };
  const settings = { ...defaults };
  for (const setting of GROUP_SETTING_NAMES) {
    const given = request.settings[setting];
    if (given === undefined) continue;
    const value = normalizeSettingValue(given, groups);
    await checkSettingValue(realm.id, groups, setting, value);
    settings[setting] = value;
  }
  const duplicate = () => new BadRequestError(`User group '${name}' already exists.`);
  if (groups.groups.some((g) => g.name === name)) throw duplicate();
  const subgroups = [...new Set(request.subgroups ?? [])];
  checkSubgroupIds(groups, subgroups);

  const group: UserGroup = {
    id: await allocateIds('userGroup'),
    realmId: realm.id,
    name,
    description: request.description,
    members: [...new Set(request.members)],
    directSubgroupIds: subgroups,
    isSystemGroup: false,
    deactivated: false,
    creatorId: user.id,
    dateCreated: nowSeconds(),
    groupSettings: settings,
    version: 0,
  };
  const used = usedNonSystemGroups(groups, [...subgroups, ...GROUP_SETTING_NAMES.flatMap((s) => groupsUsedBy(settings[s]))]);
  try {
    // A transaction conflict (another transaction held a used group) changes nothing: send it again.
    await retryLostRaces(() => groupsStore.createGroup(group, used), isTransactionConflict);
  } catch (error) {
    const codes = conflictCodes(error);
    if (codes?.[1] === 'ConditionalCheckFailed') throw duplicate();
    if (codes) throw new BadRequestError('User group is deactivated.');
    throw error;
  }
  const { direct_subgroup_ids: _subgroups, ...groupDict } = toApiUserGroup(group);
  await sendEvent(
    realm.id,
    { type: 'user_group', op: 'add', group: { ...groupDict, members: group.members, direct_subgroup_ids: [] }, for_reactivation: false },
    'realm',
  );
  if (subgroups.length > 0) {
    await sendEvent(realm.id, { type: 'user_group', op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: subgroups }, 'realm');
  }
  return group.id;
};

/**
 * Upstream's require_user_group_create_permission (accessUserGroupCreation: members and
 * administrators allowed by can_create_groups), which POST /user_groups/create checks before it
 * reads its parameters: a refusal throws, else returns the creation for this caller.
 */
const authorizeCreateUserGroup = async (user: User, realm: Realm) => {
  const groups = await accessUserGroupCreation(user, realm);
  return (request: CreateUserGroupRequest): Promise<number> => createUserGroup(user, realm, groups, request);
};

/**
 * POST /user_groups/create: the caller's permission first (authorizeCreateUserGroup; the handler
 * calls `authorize` before it parses the request), then createUserGroup. Returns the new id.
 */
export const checkCreateUserGroup = Object.assign(
  async (user: User, realm: Realm, request: CreateUserGroupRequest): Promise<number> =>
    (await authorizeCreateUserGroup(user, realm))(request),
  { authorize: authorizeCreateUserGroup },
);

// ---------------------------------------------------------------------------------------------
// Updates and reactivation

export type SettingChange = { new: GroupSettingValue; old?: GroupSettingValue };

export type UpdateUserGroupRequest = {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<GroupSettingName, SettingChange>>;
};

/**
 * PATCH /user_groups/{id}. Checks, in upstream's order: something to change ("No new data
 * supplied"), the group is the caller's to manage (deactivated groups included), the new name,
 * then each setting change (its `old` value, when given, must be the current one). Writes the
 * name, description and settings in one transaction that also records the use of every group a
 * new setting names, conditioned on the group's version its checks read (the checks run again
 * when another write came first), and reactivates with a conditional write. Emits user_group update events
 * (name, description, each setting) and, on reactivation, update {deactivated:false} plus add.
 */
export const checkUpdateUserGroup = forMembers(
  async (user: User, realm: Realm, groupId: number, request: UpdateUserGroupRequest): Promise<void> => {
    const settingNames = Object.keys(request.settings) as GroupSettingName[];
    if (request.name === undefined && request.description === undefined && request.deactivated === undefined && settingNames.length === 0) {
      throw new BadRequestError('No new data supplied');
    }
    // The checks and the write run again when a concurrent write to the group came first.
    const { group, changes, newSettings, reactivate } = await retryLostRaces(async () => {
      const groups = await RealmGroups.load(realm.id, { consistent: true });
      const group = accessUserGroupForUpdate(realm, groups, user, groupId, { allowDeactivated: true });

      const changes: groupsStore.GroupChanges = {};
      if (request.name !== undefined && request.name !== group.name) {
        const name = checkUserGroupName(request.name);
        if (groups.groups.some((g) => g.name === name)) throw new BadRequestError(`User group '${name}' already exists.`);
        changes.name = { from: group.name, to: name };
      }
      if (request.description !== undefined && request.description !== group.description) changes.description = request.description;
      const reactivate = request.deactivated === false && group.deactivated;

      const newSettings: Partial<Record<GroupSettingName, GroupSettingValue>> = {};
      for (const setting of GROUP_SETTING_NAMES) {
        const change = request.settings[setting];
        if (change === undefined) continue;
        const next = normalizeSettingValue(change.new, groups);
        const current = group.groupSettings[setting];
        if (change.old !== undefined && !sameSettingValue(normalizeSettingValue(change.old, groups), current)) {
          throw new ApiError("'old' value does not match the expected value.", { code: ErrorCode.EXPECTATION_MISMATCH });
        }
        if (sameSettingValue(current, next)) continue;
        await checkSettingValue(realm.id, groups, setting, next);
        newSettings[setting] = next;
      }
      if (Object.keys(newSettings).length > 0) changes.settings = newSettings;

      if (changes.name || changes.description !== undefined || changes.settings) {
        const used = usedNonSystemGroups(groups, Object.values(newSettings).flatMap(groupsUsedBy));
        try {
          await groupsStore.updateGroup(realm.id, group.id, changes, used, group.version ?? 0);
        } catch (error) {
          const codes = conflictCodes(error);
          if (codes && changes.name && codes[1] === 'ConditionalCheckFailed')
            throw new BadRequestError(`User group '${changes.name.to}' already exists.`);
          // The group changed (or went) since it was read, or another transaction held an item.
          if (codes?.[0] === 'ConditionalCheckFailed' || codes?.includes('TransactionConflict')) throw new LostRaceError();
          if (codes) throw new BadRequestError('User group is deactivated.');
          throw error;
        }
      }
      return { group, changes, newSettings, reactivate };
    });
    let reactivated = false;
    if (reactivate) {
      try {
        await groupsStore.reactivateGroup(realm.id, group.id);
        reactivated = true;
      } catch (error) {
        // Another request reactivated it first: nothing left to do.
        if (!conflictCodes(error)) throw error;
      }
    }

    const update = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      sendEvent(realm.id, { type: 'user_group', op: 'update', group_id: group.id, data, ...extra }, 'realm');
    // As upstream, the rename is announced before a reactivation in the same request, so it carries
    // the state the group had then; the add that follows the reactivation carries the new name.
    if (changes.name) await update({ name: changes.name.to }, { deactivated: group.deactivated });
    if (changes.description !== undefined) await update({ description: changes.description });
    if (reactivated) {
      await update({ deactivated: false });
      const current = {
        ...group,
        ...(changes.name ? { name: changes.name.to } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
      };
      current.groupSettings = { ...group.groupSettings, ...newSettings };
      current.deactivated = false;
      await sendEvent(realm.id, { type: 'user_group', op: 'add', group: toApiUserGroup(current), for_reactivation: true }, 'realm');
    }
    for (const [setting, value] of Object.entries(newSettings)) await update({ [setting]: toApiGroupSettingValue(value) });
  },
);

// ---------------------------------------------------------------------------------------------
// Deactivation

const settingsUsing = (settings: Record<string, GroupSettingValue> | undefined, users: Set<number>): string[] =>
  Object.entries(settings ?? {})
    .filter(([, value]) => value !== null && value !== undefined && groupsUsedBy(value).some((id) => users.has(id)))
    .map(([name]) => name)
    .sort();

/**
 * Upstream's check_user_group_can_be_deactivated, on a snapshot of the organization: active
 * named supergroups, then unarchived channels, active groups and the organization whose settings
 * name the group directly or through an anonymous group that contains it.
 */
const deactivationObjections = (group: UserGroup, groups: UserGroup[], channels: Channel[], realm: Realm): Objection[] => {
  const objections: Objection[] = [];
  const supergroups = groups
    .filter((g) => !g.deactivated && g.id !== group.id && g.directSubgroupIds.includes(group.id))
    .map((g) => g.id)
    .sort((a, b) => a - b);
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroups });
  const target = new Set([group.id]);
  for (const channel of [...channels].sort((a, b) => a.id - b.id)) {
    if (channel.isArchived) continue;
    const settings = settingsUsing(channel.groupSettings, target);
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  for (const other of [...groups].sort((a, b) => a.id - b.id)) {
    if (other.deactivated || other.id === group.id) continue;
    const settings = settingsUsing(other.groupSettings, target);
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realmSettings = settingsUsing(realm.groupSettings, target);
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
};

/**
 * POST /user_groups/{id}/deactivate. Checks, in upstream's order: the group exists in the
 * organization ("Invalid user group"), is active ("User group is deactivated."), is not a system
 * group and is the caller's to manage ("Insufficient permission"), and is not in use
 * (CANNOT_DEACTIVATE_GROUP_IN_USE with the objections). The write is conditioned on the group's
 * version read with the checks; a concurrent write that started using the group raised it, so
 * the checks run again on fresh data. Emits user_group update {deactivated:true} and remove.
 */
export const checkDeactivateUserGroup = async (user: User, realm: Realm, groupId: number): Promise<void> => {
  await retryLostRaces(
    async () => {
      const [groups, channels, freshRealm] = await Promise.all([
        RealmGroups.load(realm.id, { consistent: true }),
        channelsStore.listChannelsOfRealm(realm.id, { consistent: true }),
        realmsStore.get(realm.id),
      ]);
      const currentRealm = freshRealm ?? realm;
      const group = accessUserGroupForUpdate(currentRealm, groups, user, groupId, { allowDeactivated: false });
      const objections = deactivationObjections(group, groups.groups, channels, currentRealm);
      if (objections.length > 0) {
        throw new ApiError('Cannot deactivate user group in use.', {
          code: ErrorCode.CANNOT_DEACTIVATE_GROUP_IN_USE,
          data: { objections },
        });
      }
      await groupsStore.deactivateGroup(realm.id, group.id, group.version ?? 0);
    },
    (error) => conflictCodes(error) !== undefined,
  );
  await sendEvent(realm.id, { type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: true } }, 'realm');
  await sendEvent(realm.id, { type: 'user_group', op: 'remove', group_id: groupId }, 'realm');
};
