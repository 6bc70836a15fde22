import * as groupsStore from '../../../lib/store/user-groups';
import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { createGroup, storedGroup } from './helpers';

const groupNames = async () => (await groupsStore.listGroupsOfRealm(2, { consistent: true })).map((g) => g.name);

describe('POST /user_groups/create', () => {
  it('creates a group with upstream defaults and returns its id', async () => {
    const body = expectSuccess(await createGroup('hamlet@zulip.com', { name: 'gravediggers', description: 'Dig', members: [10, 8] }));
    const group = await storedGroup(body.group_id);
    expect(group).toMatchObject({
      name: 'gravediggers',
      description: 'Dig',
      members: [10, 8],
      directSubgroupIds: [],
      creatorId: 10,
      deactivated: false,
      isSystemGroup: false,
      groupSettings: {
        can_add_members_group: { direct_members: [10], direct_subgroups: [] },
        can_join_group: 8,
        can_leave_group: 6,
        can_manage_group: { direct_members: [10], direct_subgroups: [] },
        can_mention_group: 6,
        can_remove_members_group: 8,
      },
    });
  });

  it('takes settings and subgroups, a lone subgroup becoming the group itself', async () => {
    const body = expectSuccess(
      await createGroup('iago@zulip.com', {
        name: 'players',
        members: [11],
        subgroups: [9],
        can_mention_group: { direct_members: [], direct_subgroups: [11] },
        can_manage_group: { direct_members: [14, 10], direct_subgroups: [9] },
      }),
    );
    const group = await storedGroup(body.group_id);
    expect(group?.directSubgroupIds).toEqual([9]);
    expect(group?.groupSettings.can_mention_group).toBe(11);
    expect(group?.groupSettings.can_manage_group).toEqual({ direct_members: [14, 10], direct_subgroups: [9] });
  });

  it.each([
    [{ name: 'hamletcharacters' }, "User group 'hamletcharacters' already exists."],
    [{ name: '   ' }, "User group name can't be empty!"],
    [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
    [{ name: 'role:new' }, "User group name cannot start with 'role:'."],
    [{ name: '@new' }, "User group name cannot start with '@'."],
    [{ name: 'new', members: [999] }, 'Invalid user ID: 999'],
    [{ name: 'new', members: [18] }, 'Invalid user ID: 18'],
    [{ name: 'new', members: [20] }, 'Invalid user ID: 20'],
    [{ name: 'new', subgroups: [29] }, 'Invalid user group ID: 29'],
    [{ name: 'new', subgroups: [15] }, 'User group is deactivated.'],
    [{ name: 'new', can_mention_group: 15 }, 'User group is deactivated.'],
    [{ name: 'new', can_mention_group: 29 }, 'Invalid user group'],
    [{ name: 'new', can_manage_group: 6 }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    [{ name: 'new', can_mention_group: 7 }, "'can_mention_group' setting cannot be set to 'role:internet' group."],
    [{ name: 'new', can_manage_group: { direct_members: [20], direct_subgroups: [] } }, 'Invalid user ID: 20'],
    [{ name: 'new', can_manage_group: { direct_members: [], direct_subgroups: [9, 29] } }, 'Invalid user group ID: 29'],
  ])('refuses %j with %j and creates nothing', async (params, msg) => {
    const before = await groupNames();
    expectError(await createGroup('iago@zulip.com', params), msg);
    expect(await groupNames()).toEqual(before);
  });

  it.each([
    [{ name: 'new', members: '[1,"a"]' }, 'members[1] is not an integer'],
    [
      { name: 'new', can_mention_group: '{"direct_members": []}' },
      'can_mention_group["direct_subgroups"] field is missing: Field required',
    ],
  ])('validates parameter shapes: %j', async (params, msg) => {
    expectError(await createGroup('iago@zulip.com', params), msg);
  });

  it('requires name, description and members', async () => {
    const { call } = await import('../../helpers/api');
    const { handler } = await import('../../../functions/user-groups/create');
    const result = await call(handler, {
      method: 'POST',
      path: '/user_groups/create',
      as: 'iago@zulip.com',
      params: { name: 'x', members: [] },
    });
    expectError(result, "Missing 'description' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses guests and bots as upstream', async () => {
    expectError(await createGroup('polonius@zulip.com', { name: 'spies' }), 'Not allowed for guest users');
    expectError(await createGroup('default-bot@zulip.com', { name: 'bots' }), 'This endpoint does not accept bot requests.');
    expect(await groupNames()).not.toContain('spies');
  });

  it('lets only one of two concurrent creations of one name succeed', async () => {
    const results = await Promise.all([
      createGroup('iago@zulip.com', { name: 'twins' }),
      createGroup('hamlet@zulip.com', { name: 'twins' }),
    ]);
    expect(results.map((r) => r.body.result).sort()).toEqual(['error', 'success']);
    expectError(
      results.find((r) => r.body.result === 'error')!,
      "User group 'twins' already exists.",
    );
    expect((await groupNames()).filter((n) => n === 'twins')).toHaveLength(1);
  });

  it('sends user_group add, then add_subgroups, to the organization', async () => {
    const [iago, king] = await Promise.all([openQueue('iago@zulip.com'), openQueue('king@lear.org')]);
    const body = expectSuccess(
      await createGroup('hamlet@zulip.com', { name: 'eventful', description: 'd', members: [10], subgroups: [9] }),
    );
    const events = await iago.drain();
    expect(events).toEqual([
      {
        type: 'user_group',
        op: 'add',
        group: {
          id: body.group_id,
          name: 'eventful',
          creator_id: 10,
          date_created: expect.any(Number),
          description: 'd',
          members: [10],
          direct_subgroup_ids: [],
          is_system_group: false,
          can_add_members_group: { direct_members: [10], direct_subgroups: [] },
          can_join_group: 8,
          can_leave_group: 6,
          can_manage_group: { direct_members: [10], direct_subgroups: [] },
          can_mention_group: 6,
          can_remove_members_group: 8,
          deactivated: false,
        },
      },
      { type: 'user_group', op: 'add_subgroups', group_id: body.group_id, direct_subgroup_ids: [9] },
    ]);
    expect(await king.drain()).toEqual([]);
  });
});

describe('POST /user_groups/create in an organization that never set can_create_groups', () => {
  it("applies upstream's default (members may create groups) instead of refusing everyone", async () => {
    const realmsStore = await import('../../../lib/store/realms');
    const realm = (await realmsStore.get(2))!;
    const { can_create_groups: _unset, ...rest } = realm.groupSettings;
    await realmsStore.put({ ...realm, groupSettings: rest });
    try {
      expectSuccess(await createGroup('hamlet@zulip.com', { name: 'defaults apply', members: [10] }));
      expect(await groupNames()).toContain('defaults apply');
      expectError(await createGroup('polonius@zulip.com', { name: 'guests may not' }), 'Not allowed for guest users');
    } finally {
      await realmsStore.put(realm);
    }
  });
});
