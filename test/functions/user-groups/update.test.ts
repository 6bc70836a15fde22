import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { deactivateGroup, patchGroup, storedGroup } from './helpers';

describe('PATCH /user_groups/{user_group_id}', () => {
  it('renames a group and changes its description', async () => {
    expectSuccess(await patchGroup('iago@zulip.com', 11, { name: 'moderators-of-denmark', description: 'Renamed' }));
    expect(await storedGroup(11)).toMatchObject({ name: 'moderators-of-denmark', description: 'Renamed' });
  });

  it('frees the old name for another group', async () => {
    expectSuccess(await patchGroup('iago@zulip.com', 12, { name: 'moderation-team' }));
    expect((await storedGroup(12))?.name).toBe('moderation-team');
  });

  it('refuses a name another group has', async () => {
    expectError(await patchGroup('iago@zulip.com', 14, { name: 'leadership' }), "User group 'leadership' already exists.");
    expect((await storedGroup(14))?.name).toBe('design-reviewers');
  });

  it('answers "No new data supplied" when nothing is given', async () => {
    expectError(await patchGroup('iago@zulip.com', 14, {}), 'No new data supplied');
  });

  it.each([
    ['an unknown group', 'iago@zulip.com', 999999, 'Invalid user group'],
    ["the other organization's group", 'iago@zulip.com', 29, 'Invalid user group'],
    ['a system group', 'desdemona@zulip.com', 2, 'Insufficient permission'],
    ['a group the member does not manage', 'hamlet@zulip.com', 14, 'Insufficient permission'],
    ['a group of the first organization, for king@lear.org', 'king@lear.org', 14, 'Invalid user group'],
  ])('refuses %s', async (_label, as, groupId, msg) => {
    expectError(await patchGroup(as, groupId, { description: 'x' }), msg);
    expect((await storedGroup(14))?.description).toBe('Not used by any setting');
  });

  it('refuses guests and bots as upstream', async () => {
    expectError(await patchGroup('polonius@zulip.com', 14, { description: 'x' }), 'Not allowed for guest users');
    expectError(await patchGroup('default-bot@zulip.com', 14, { description: 'x' }), 'This endpoint does not accept bot requests.');
  });

  it("lets the group's manager change a setting", async () => {
    expectSuccess(await patchGroup('prospero@zulip.com', 14, { can_mention_group: { new: 11 } }));
    expect((await storedGroup(14))?.groupSettings.can_mention_group).toBe(11);
  });

  it('refuses a change whose old value is not the current one', async () => {
    const result = await patchGroup('iago@zulip.com', 14, { can_mention_group: { new: 6, old: 8 } });
    expectError(result, "'old' value does not match the expected value.", 400, 'EXPECTATION_MISMATCH');
    expect((await storedGroup(14))?.groupSettings.can_mention_group).toBe(11);
  });

  it.each([
    [{ can_manage_group: { new: 6 } }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    [{ can_mention_group: { new: 15 } }, 'User group is deactivated.'],
    [{ can_mention_group: { new: { direct_members: [10], direct_subgroups: [15] } } }, 'User group is deactivated.'],
    [{ can_mention_group: { new: 29 } }, 'Invalid user group'],
  ])('refuses setting %j', async (params, msg) => {
    expectError(await patchGroup('iago@zulip.com', 14, params), msg);
    expect((await storedGroup(14))?.groupSettings.can_mention_group).toBe(11);
  });

  it('reactivates a deactivated group', async () => {
    expectSuccess(await patchGroup('iago@zulip.com', 15, { deactivated: false }));
    expect((await storedGroup(15))?.deactivated).toBe(false);
  });

  it('renames a deactivated group', async () => {
    expectSuccess(await deactivateGroup('iago@zulip.com', 15));
    expectSuccess(await patchGroup('iago@zulip.com', 15, { name: 'long-retired' }));
    expect(await storedGroup(15)).toMatchObject({ name: 'long-retired', deactivated: true });
  });
});

describe('user_group events', () => {
  it('sends update {deactivated: true} to capable queues and remove to the others, one each', async () => {
    const capable = await openQueue('hamlet@zulip.com', { capabilities: { include_deactivated_groups: true } });
    const legacy = await openQueue('hamlet@zulip.com');
    expectSuccess(await deactivateGroup('prospero@zulip.com', 14));
    expect(await capable.drain()).toEqual([{ type: 'user_group', op: 'update', group_id: 14, data: { deactivated: true } }]);
    expect(await legacy.drain()).toEqual([{ type: 'user_group', op: 'remove', group_id: 14 }]);
  });

  it('sends update {deactivated: false} to capable queues and add to the others on reactivation', async () => {
    const capable = await openQueue('cordelia@zulip.com', { capabilities: { include_deactivated_groups: true } });
    const legacy = await openQueue('cordelia@zulip.com');
    expectSuccess(await patchGroup('iago@zulip.com', 14, { deactivated: false }));
    expect(await capable.drain()).toEqual([{ type: 'user_group', op: 'update', group_id: 14, data: { deactivated: false } }]);
    expect(await legacy.drain()).toEqual([
      {
        type: 'user_group',
        op: 'add',
        group: expect.objectContaining({ id: 14, name: 'design-reviewers', deactivated: false, members: [14] }),
      },
    ]);
  });

  it('does not tell queues without the capability about renames of deactivated groups', async () => {
    const capable = await openQueue('cordelia@zulip.com', { capabilities: { include_deactivated_groups: true } });
    const legacy = await openQueue('cordelia@zulip.com');
    expectSuccess(await patchGroup('iago@zulip.com', 15, { name: 'very-retired' }));
    expect(await capable.drain()).toEqual([{ type: 'user_group', op: 'update', group_id: 15, data: { name: 'very-retired' } }]);
    expect(await legacy.drain()).toEqual([]);
  });

  it('tells every queue about renames, description and setting changes of active groups', async () => {
    const legacy = await openQueue('cordelia@zulip.com');
    expectSuccess(
      await patchGroup('iago@zulip.com', 13, {
        name: 'mentors',
        description: 'New',
        can_mention_group: { new: { direct_members: [11, 9], direct_subgroups: [] } },
      }),
    );
    expect(await legacy.drain()).toEqual([
      { type: 'user_group', op: 'update', group_id: 13, data: { name: 'mentors' } },
      { type: 'user_group', op: 'update', group_id: 13, data: { description: 'New' } },
      { type: 'user_group', op: 'update', group_id: 13, data: { can_mention_group: { direct_members: [9, 11], direct_subgroups: [] } } },
    ]);
  });

  it('sends nothing to the other organization', async () => {
    const king = await openQueue('king@lear.org', { capabilities: { include_deactivated_groups: true } });
    expectSuccess(await deactivateGroup('prospero@zulip.com', 14));
    expect(await king.drain()).toEqual([]);
  });
});
