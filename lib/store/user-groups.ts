// Named user groups (realm partition, GROUP#<id>) and their name locks (GROUPNAME#<name>).
// Group settings are stored as wire-format group-setting values on the group item itself, so
// anonymous groups need no items of their own. Every write that starts *using* a group (a setting
// or a subgroup that names it) raises that group's `version` in the same transaction, on the
// condition that it is still active; a deactivation is conditioned on the version its checks read.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GroupSettingValue } from '../models/realm';
import type { GroupSettingName, UserGroup } from '../models/user-group';
import { documentClient, tableName } from './client';
import { queryPrefix, sendConditional, sendTransaction, stripKeys, type Item, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_GROUPS } from './limits';

/** A transaction lost a race (a condition or a concurrent transaction); `reasons[i]` is item i's cancellation code ('None' if it passed). */
export class TransactionConflictError extends Error {
  constructor(
    readonly reasons: string[],
    options?: { cause?: unknown },
  ) {
    super(`transaction cancelled: ${reasons.join(',')}`, options);
    this.name = 'TransactionConflictError';
  }
}

const toGroup = (item: Item): UserGroup => stripKeys(item) as UserGroup;

/** Every named group of an organization (system, active and deactivated), in id order. */
export const listGroupsOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<UserGroup[]> => {
  const k = entityKeys.groupsOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_GROUPS })).map(toGroup);
};

/** One group of an organization, or undefined (another organization's id looks missing). */
export const getGroup = async (realmId: number, groupId: number, opts: { consistent?: boolean } = {}): Promise<UserGroup | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.userGroup(realmId, groupId), ConsistentRead: opts.consistent ?? false }),
  );
  return out.Item ? toGroup(out.Item) : undefined;
};

/** The stored items of a group: the group and its name lock. */
export const buildGroupItems = (group: UserGroup): Item[] => [
  { ...entityKeys.userGroup(group.realmId, group.id), ...group, version: group.version ?? 0 },
  { ...entityKeys.groupName(group.realmId, group.name), realmId: group.realmId, groupId: group.id },
];

/** A transaction item that marks an active group as newly used (fails if it is deactivated or missing). */
export const buildUseGroupItem = (realmId: number, groupId: number): TransactItem => ({
  Update: {
    TableName: tableName('main'),
    Key: entityKeys.userGroup(realmId, groupId),
    UpdateExpression: 'SET #ver = if_not_exists(#ver, :zero) + :one',
    ConditionExpression: 'attribute_exists(pk) AND #deactivated = :false',
    ExpressionAttributeNames: { '#ver': 'version', '#deactivated': 'deactivated' },
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':false': false },
  },
});

const transact = async (items: TransactItem[]): Promise<void> => {
  const loss = await sendTransaction(items);
  if (loss) throw new TransactionConflictError(loss.reasons);
};

/**
 * Creates a group with its name lock, marking `usedGroupIds` (groups its settings and subgroups
 * name) as used. Item order in a conflict: 0 the group, 1 the name lock, then the used groups.
 */
export const buildCreateGroupInput = (group: UserGroup, usedGroupIds: number[]): TransactItem[] => {
  const [groupItem, nameItem] = buildGroupItems(group);
  return [
    { Put: { TableName: tableName('main'), Item: groupItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName('main'), Item: nameItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...usedGroupIds.map((id) => buildUseGroupItem(group.realmId, id)),
  ];
};

export const createGroup = (group: UserGroup, usedGroupIds: number[]): Promise<void> =>
  transact(buildCreateGroupInput(group, usedGroupIds));

export type GroupChanges = {
  name?: { from: string; to: string };
  description?: string;
  settings?: Partial<Record<GroupSettingName, GroupSettingValue>>;
};

/**
 * Updates a group's name, description and settings in one transaction. A rename moves the name
 * lock; `usedGroupIds` are marked used. With `expectedVersion`, the group must still be at the
 * version the caller's checks read (two renames must not both move the lock). Item order in a
 * conflict: 0 the group, then (rename) the new name lock and the old one, then the used groups.
 */
export const buildUpdateGroupInput = (
  realmId: number,
  groupId: number,
  changes: GroupChanges,
  usedGroupIds: number[],
  expectedVersion?: number,
): TransactItem[] => {
  const names: Record<string, string> = { '#ver': 'version' };
  const values: Record<string, unknown> = {
    ':zero': 0,
    ':one': 1,
    ...(expectedVersion === undefined ? {} : { ':expected': expectedVersion }),
  };
  const sets = ['#ver = if_not_exists(#ver, :zero) + :one'];
  if (changes.name) {
    names['#name'] = 'name';
    values[':name'] = changes.name.to;
    sets.push('#name = :name');
  }
  if (changes.description !== undefined) {
    names['#description'] = 'description';
    values[':description'] = changes.description;
    sets.push('#description = :description');
  }
  Object.entries(changes.settings ?? {}).forEach(([setting, value], i) => {
    names['#gs'] = 'groupSettings';
    names[`#s${i}`] = setting;
    values[`:s${i}`] = value;
    sets.push(`#gs.#s${i} = :s${i}`);
  });
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.userGroup(realmId, groupId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression:
          expectedVersion === undefined
            ? 'attribute_exists(pk)'
            : 'attribute_exists(pk) AND (attribute_not_exists(#ver) OR #ver = :expected)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (changes.name) {
    items.push(
      {
        Put: {
          TableName: tableName('main'),
          Item: { ...entityKeys.groupName(realmId, changes.name.to), realmId, groupId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Delete: { TableName: tableName('main'), Key: entityKeys.groupName(realmId, changes.name.from) } },
    );
  }
  items.push(...usedGroupIds.map((id) => buildUseGroupItem(realmId, id)));
  return items;
};

export const updateGroup = (
  realmId: number,
  groupId: number,
  changes: GroupChanges,
  usedGroupIds: number[],
  expectedVersion?: number,
): Promise<void> => transact(buildUpdateGroupInput(realmId, groupId, changes, usedGroupIds, expectedVersion));

/** Deactivates an active group whose version is still `expectedVersion` (the one its checks read). */
export const buildDeactivateGroupInput = (realmId: number, groupId: number, expectedVersion: number): TransactItem[] => [
  {
    Update: {
      TableName: tableName('main'),
      Key: entityKeys.userGroup(realmId, groupId),
      UpdateExpression: 'SET #deactivated = :true, #ver = :next',
      ConditionExpression: 'attribute_exists(pk) AND #deactivated = :false AND (attribute_not_exists(#ver) OR #ver = :expected)',
      ExpressionAttributeNames: { '#deactivated': 'deactivated', '#ver': 'version' },
      ExpressionAttributeValues: { ':true': true, ':false': false, ':expected': expectedVersion, ':next': expectedVersion + 1 },
    },
  },
];

export const deactivateGroup = (realmId: number, groupId: number, expectedVersion: number): Promise<void> =>
  transact(buildDeactivateGroupInput(realmId, groupId, expectedVersion));

/** Reactivates a deactivated group; a conflict means it was already active. */
export const reactivateGroup = (realmId: number, groupId: number): Promise<void> =>
  transact([
    {
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.userGroup(realmId, groupId),
        UpdateExpression: 'SET #deactivated = :false, #ver = if_not_exists(#ver, :zero) + :one',
        ConditionExpression: 'attribute_exists(pk) AND #deactivated = :true',
        ExpressionAttributeNames: { '#deactivated': 'deactivated', '#ver': 'version' },
        ExpressionAttributeValues: { ':true': true, ':false': false, ':zero': 0, ':one': 1 },
      },
    },
  ]);

/**
 * Adds users to a group's direct members (those already in it are left out of `userIds` by the
 * caller), if its member list is still the one read (`expectedCount` members): false when a
 * concurrent change came first, for the caller to read again.
 */
export const addGroupMembers = (realmId: number, groupId: number, userIds: number[], expectedCount: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.userGroup(realmId, groupId),
      UpdateExpression: 'SET #members = list_append(#members, :ids), #ver = if_not_exists(#ver, :zero) + :one',
      ConditionExpression: 'attribute_exists(pk) AND size(#members) = :n',
      ExpressionAttributeNames: { '#members': 'members', '#ver': 'version' },
      ExpressionAttributeValues: { ':ids': userIds, ':n': expectedCount, ':zero': 0, ':one': 1 },
    }),
  );

/** Removes one direct member, at `index` of the member list as read, if it is still there (false otherwise). */
export const removeGroupMember = (realmId: number, groupId: number, userId: number, index: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.userGroup(realmId, groupId),
      UpdateExpression: `REMOVE #members[${index}] SET #ver = if_not_exists(#ver, :zero) + :one`,
      ConditionExpression: `attribute_exists(pk) AND #members[${index}] = :id`,
      ExpressionAttributeNames: { '#members': 'members', '#ver': 'version' },
      ExpressionAttributeValues: { ':id': userId, ':zero': 0, ':one': 1 },
    }),
  );

/**
 * Sets a group's direct members and subgroups if the group is still at `expectedVersion` (the one
 * the caller's checks read), raising its version; `usedGroupIds` (new subgroups) are marked used,
 * so none of them can be deactivated meanwhile. A refusal is a TransactionConflictError.
 */
export const setGroupMembership = (
  realmId: number,
  groupId: number,
  membership: { members: number[]; directSubgroupIds: number[] },
  expectedVersion: number,
  usedGroupIds: number[],
): Promise<void> =>
  transact([
    {
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.userGroup(realmId, groupId),
        UpdateExpression: 'SET #members = :members, #subgroups = :subgroups, #ver = :next',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#ver) OR #ver = :expected)',
        ExpressionAttributeNames: { '#members': 'members', '#subgroups': 'directSubgroupIds', '#ver': 'version' },
        ExpressionAttributeValues: {
          ':members': membership.members,
          ':subgroups': membership.directSubgroupIds,
          ':expected': expectedVersion,
          ':next': expectedVersion + 1,
        },
      },
    },
    ...usedGroupIds.map((id) => buildUseGroupItem(realmId, id)),
  ]);
