import * as groupsStore from '../../../lib/store/user-groups';
import { expectSuccess } from '../../helpers/api';
import { createGroup, deactivateGroup, patchGroup, storedGroup } from './helpers';

const inUseBy13 = async (groupId: number) => {
  const value = (await storedGroup(13))!.groupSettings.can_mention_group;
  return value === groupId || (typeof value === 'object' && value.direct_subgroups.includes(groupId));
};

describe('deactivation racing with a change that puts the group in use', () => {
  it('refuses a deactivation whose checks were overtaken by a new use of the group', async () => {
    // The deactivation read the group at this version and found it unused ...
    const before = (await storedGroup(14))!;
    // ... then another request makes mention-managers' can_mention_group name it ...
    expectSuccess(await patchGroup('iago@zulip.com', 13, { can_mention_group: { new: 14 } }));
    // ... so the deactivation's conditional write must fail.
    await expect(groupsStore.deactivateGroup(2, 14, before.version ?? 0)).rejects.toBeInstanceOf(groupsStore.TransactionConflictError);
    expect((await storedGroup(14))?.deactivated).toBe(false);
  });

  it('refuses a new use of a group deactivated after the change checked it', async () => {
    const group = (await groupsStore.listGroupsOfRealm(2, { consistent: true })).find((g) => g.id === 12)!;
    // Deactivate web-public-creators directly (its realm use aside) as a concurrent request would.
    await groupsStore.deactivateGroup(2, 12, group.version ?? 0);
    await expect(groupsStore.updateGroup(2, 13, { settings: { can_mention_group: 12 } }, [12])).rejects.toBeInstanceOf(
      groupsStore.TransactionConflictError,
    );
    expect(await inUseBy13(12)).toBe(false);
  });

  it.each([1, 2, 3, 4, 5])('never leaves a deactivated group in use (concurrent requests, round %i)', async () => {
    const { group_id: target } = expectSuccess(await createGroup('iago@zulip.com', { name: `racer-${Date.now()}-${Math.random()}` }));
    const [deactivation, use] = await Promise.all([
      deactivateGroup('iago@zulip.com', target),
      patchGroup('iago@zulip.com', 13, { can_mention_group: { new: { direct_members: [9], direct_subgroups: [target] } } }),
    ]);
    const deactivated = (await storedGroup(target))!.deactivated;
    const used = await inUseBy13(target);
    expect(deactivated && used).toBe(false);
    // Exactly one of the two got through; the other was told why.
    expect([deactivation.body.result, use.body.result].sort()).toEqual(['error', 'success']);
    if (deactivated) expect(use.body.msg).toBe('User group is deactivated.');
    else
      expect(deactivation.body).toMatchObject({
        code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
        objections: [{ type: 'user_group', group_id: 13, settings: ['can_mention_group'] }],
      });
  });
});
