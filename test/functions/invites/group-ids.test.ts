// POST /invites/multiuse `group_ids` (issue 13 item 7): checked as upstream's
// access_user_groups_for_invite (each group an active non-system group of the organization that
// the inviter may add members to), then stored on the invitation; never accepted silently.
import { handler as create } from '../../../functions/invites/create-multiuse';
import * as invitesStore from '../../../lib/store/invites';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { patchGroup } from '../user-groups/helpers';

const post = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/invites/multiuse', as, params });
const invites = () => invitesStore.listInvitesOfRealm(2);
const inviteOf = async (link: string) => (await invites()).find((i) => link.includes(i.confirmationKey))!;

describe('POST /invites/multiuse with group_ids', () => {
  it.each([
    ["another organization's group", [29], 'Invalid user group'],
    ['a group that does not exist', [999999], 'Invalid user group'],
    ['a valid group followed by an unknown one', [9, 999999], 'Invalid user group'],
    ['a deactivated group', [15], 'User group is deactivated.'],
    ['a system group', [5], 'Insufficient permission'],
  ])('refuses %s and creates no link', async (_label, groupIds, msg) => {
    const before = await invites();
    const result = await post('iago@zulip.com', { group_ids: groupIds });
    expectError(result, msg);
    expect(await invites()).toEqual(before);
  });

  it('stores the groups on the invitation, each once', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { group_ids: [10, 9, 10] }));
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    expect((await inviteOf(body.invite_link)).groupIds).toEqual([10, 9]);
  });

  it('stores no group without group_ids, or with an empty list', async () => {
    expect((await inviteOf(expectSuccess(await post('iago@zulip.com', {})).invite_link)).groupIds).toEqual([]);
    expect((await inviteOf(expectSuccess(await post('iago@zulip.com', { group_ids: [] })).invite_link)).groupIds).toEqual([]);
  });

  describe('for an inviter who does not manage every group', () => {
    beforeAll(async () => {
      // Let members create invitation links, so that a member's group permissions decide.
      const realm = (await realmsStore.get(2))!;
      await realmsStore.put({ ...realm, groupSettings: { ...realm.groupSettings, can_create_multiuse_invite_group: 5 } });
    });

    it('refuses a group the inviter may not add members to', async () => {
      const before = await invites();
      expectError(await post('hamlet@zulip.com', { group_ids: [14] }), 'Insufficient permission');
      expect(await invites()).toEqual(before);
    });

    it('accepts a group whose can_add_members_group includes the inviter', async () => {
      expectSuccess(
        await patchGroup('iago@zulip.com', 11, { can_add_members_group: { new: { direct_members: [10], direct_subgroups: [] } } }),
      );
      const body = expectSuccess(await post('hamlet@zulip.com', { group_ids: [11] }));
      expect((await inviteOf(body.invite_link)).groupIds).toEqual([11]);
    });
  });
});
