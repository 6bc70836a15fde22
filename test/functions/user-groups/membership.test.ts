// The user-group membership routes (upstream's update_user_group_backend,
// update_subgroups_of_user_group, get_user_group_members, get_is_user_group_member,
// get_subgroups_of_user_group), against the development data: leadership (10) has members 6, 7
// and subgroup hamletcharacters (9: 8, 10); design-reviewers (14, member 14) is managed by
// Prospero (14); mention-managers (13) has Desdemona (9); retired-group (15) is deactivated;
// role:administrators (2) is a system group. Iago (11) is an administrator (can_manage_all_groups).
import { handler as isMember } from '../../../functions/user-groups/is-member';
import { handler as members } from '../../../functions/user-groups/members';
import { handler as subgroups } from '../../../functions/user-groups/subgroups';
import { handler as updateMembers } from '../../../functions/user-groups/update-members';
import { handler as updateSubgroups } from '../../../functions/user-groups/update-subgroups';
import { call, expectError, expectSuccess, type Handler } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storedGroup } from './helpers';

const at = (handler: Handler, method: string, as: string, path: string, pathParameters: Record<string, string>, params = {}) =>
  call(handler, { method, path, pathParameters, as, params });

const postMembers = (as: string, groupId: number, params: Record<string, unknown>) =>
  at(updateMembers, 'POST', as, `/user_groups/${groupId}/members`, { user_group_id: String(groupId) }, params);
const postSubgroups = (as: string, groupId: number, params: Record<string, unknown>) =>
  at(updateSubgroups, 'POST', as, `/user_groups/${groupId}/subgroups`, { user_group_id: String(groupId) }, params);
const getMembers = (as: string, groupId: number, params = {}) =>
  at(members, 'GET', as, `/user_groups/${groupId}/members`, { user_group_id: String(groupId) }, params);
const getIsMember = (as: string, groupId: number, userId: number, params = {}) =>
  at(isMember, 'GET', as, `/user_groups/${groupId}/members/${userId}`, { user_group_id: String(groupId), user_id: String(userId) }, params);
const getSubgroups = (as: string, groupId: number, params = {}) =>
  at(subgroups, 'GET', as, `/user_groups/${groupId}/subgroups`, { user_group_id: String(groupId) }, params);

describe('GET /user_groups/{id}/members, /members/{user_id} and /subgroups', () => {
  it('lists members through subgroups, or only the direct ones', async () => {
    expect(expectSuccess(await getMembers('hamlet@zulip.com', 10)).members).toEqual([6, 7, 8, 10]);
    expect(expectSuccess(await getMembers('hamlet@zulip.com', 10, { direct_member_only: true })).members).toEqual([6, 7]);
  });

  it('says whether a user is a member, through subgroups unless asked for direct membership', async () => {
    expect(expectSuccess(await getIsMember('hamlet@zulip.com', 10, 8)).is_user_group_member).toBe(true);
    expect(expectSuccess(await getIsMember('hamlet@zulip.com', 10, 8, { direct_member_only: true })).is_user_group_member).toBe(false);
    expect(expectSuccess(await getIsMember('hamlet@zulip.com', 10, 11)).is_user_group_member).toBe(false);
  });

  it('lists subgroups', async () => {
    expect(expectSuccess(await getSubgroups('hamlet@zulip.com', 10)).subgroups).toEqual([9]);
    expect(expectSuccess(await getSubgroups('hamlet@zulip.com', 9, { direct_subgroup_only: true })).subgroups).toEqual([]);
  });

  it.each([
    ['an unknown group', () => getMembers('hamlet@zulip.com', 999), 'Invalid user group'],
    ["another organization's group", () => getSubgroups('hamlet@zulip.com', 29), 'Invalid user group'],
    ['an unknown user', () => getIsMember('hamlet@zulip.com', 10, 999), 'No such user'],
    ['a guest', () => getMembers('polonius@zulip.com', 10), 'Not allowed for guest users'],
  ])('refuses %s', async (_label, request, msg) => {
    expectError(await request(), msg);
  });
});

describe('POST /user_groups/{id}/members', () => {
  it('adds members: the organization is told and Notification Bot tells who was added by someone else', async () => {
    const cordelia = await openQueue('cordelia@zulip.com');
    const hamlet = await openQueue('hamlet@zulip.com', { params: { apply_markdown: false } });
    expectError(await postMembers('prospero@zulip.com', 14, { add: [10, 14] }), 'User 14 is already a member of this group');
    // Prospero is a member already: nothing changed.
    expect((await storedGroup(14))?.members).toEqual([14]);
    expectSuccess(await postMembers('prospero@zulip.com', 14, { add: [10] }));
    expect((await storedGroup(14))?.members).toEqual([14, 10]);
    expect((await cordelia.drain()).filter((e) => e.type === 'user_group')).toEqual([
      { type: 'user_group', op: 'add_members', group_id: 14, user_ids: [10] },
    ]);
    const dm = (await hamlet.drain()).find((e) => e.type === 'message')!;
    expect(dm.message.content).toBe('@_**Prospero from The Tempest|14** added you to the group @_*design-reviewers*.');
  });

  it('removes members, and lets a member leave a group by can_leave_group', async () => {
    const cordelia = await openQueue('cordelia@zulip.com');
    expectSuccess(await postMembers('prospero@zulip.com', 14, { delete: [10] }));
    expect((await storedGroup(14))?.members).toEqual([14]);
    expectSuccess(await postMembers('cordelia@zulip.com', 9, { delete: [8] }));
    expect((await storedGroup(9))?.members).toEqual([10]);
    expect((await cordelia.drain()).filter((e) => e.type === 'user_group')).toEqual([
      { type: 'user_group', op: 'remove_members', group_id: 14, user_ids: [10] },
      { type: 'user_group', op: 'remove_members', group_id: 9, user_ids: [8] },
    ]);
  });

  it.each([
    [
      'nothing to do',
      'prospero@zulip.com',
      14,
      {},
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    ],
    [
      'empty lists',
      'prospero@zulip.com',
      14,
      { add: [], delete: [] },
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    ],
    ['a member who does not manage the group', 'hamlet@zulip.com', 14, { add: [8] }, 'Insufficient permission'],
    ['joining a group without can_join_group', 'cordelia@zulip.com', 14, { add: [8] }, 'Insufficient permission'],
    ['a system group', 'iago@zulip.com', 2, { add: [8] }, 'Insufficient permission'],
    ['an unknown group', 'iago@zulip.com', 999, { add: [8] }, 'Invalid user group'],
    ['an existing member', 'prospero@zulip.com', 14, { add: [14] }, 'User 14 is already a member of this group'],
    ['an unknown user', 'prospero@zulip.com', 14, { add: [999] }, 'Invalid user ID: 999'],
    ['removing a non-member', 'prospero@zulip.com', 14, { delete: [8] }, "There is no member '8' in this user group"],
    ['adding and then a bad removal', 'prospero@zulip.com', 14, { add: [8], delete: [12] }, "There is no member '12' in this user group"],
    ['a guest', 'polonius@zulip.com', 14, { add: [8] }, 'Not allowed for guest users'],
  ])('refuses %s and changes nothing', async (_label, as, groupId, params, msg) => {
    expectError(await postMembers(as, groupId, params), msg);
    expect((await storedGroup(14))?.members).toEqual([14]);
  });
});

describe('POST /user_groups/{id}/subgroups', () => {
  it('adds and removes subgroups, telling the organization', async () => {
    const cordelia = await openQueue('cordelia@zulip.com');
    expectSuccess(await postSubgroups('iago@zulip.com', 14, { add: [13] }));
    expect((await storedGroup(14))?.directSubgroupIds).toEqual([13]);
    expectSuccess(await postSubgroups('iago@zulip.com', 14, { delete: [13] }));
    expect((await storedGroup(14))?.directSubgroupIds).toEqual([]);
    expect((await cordelia.drain()).filter((e) => e.type === 'user_group')).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: 14, direct_subgroup_ids: [13] },
      { type: 'user_group', op: 'remove_subgroups', group_id: 14, direct_subgroup_ids: [13] },
    ]);
  });

  it.each([
    ['nothing to do', 14, {}, 'Nothing to do. Specify at least one of "add" or "delete".'],
    ['a cycle', 9, { add: [10] }, 'User group 9 is already a subgroup of one of the passed subgroups.'],
    ['the group itself', 14, { add: [14] }, 'User group 14 is already a subgroup of one of the passed subgroups.'],
    ['an existing subgroup', 10, { add: [9] }, 'User group 9 is already a subgroup of this group.'],
    ['a deactivated group', 14, { add: [15] }, 'User group is deactivated.'],
    ['an unknown group', 14, { add: [999] }, 'Invalid user group ID: 999'],
    ['removing a group that is not a subgroup', 14, { delete: [9] }, 'User group 9 is not a subgroup of this group.'],
  ])('refuses %s and changes nothing', async (_label, groupId, params, msg) => {
    const before = await storedGroup(groupId);
    expectError(await postSubgroups('iago@zulip.com', groupId, params), msg);
    expect((await storedGroup(groupId))?.directSubgroupIds).toEqual(before?.directSubgroupIds);
  });
});
