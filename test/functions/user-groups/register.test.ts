import { handler as register } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';

const fetchState = async (as: string, capabilities?: Record<string, boolean>) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as,
      params: { fetch_event_types: ['realm_user_groups'], ...(capabilities ? { client_capabilities: capabilities } : {}) },
    }),
  );

describe('POST /register: realm_user_groups', () => {
  it('lists the active groups of the organization with every upstream field', async () => {
    const body = await fetchState('hamlet@zulip.com');
    const groups = body.realm_user_groups as Record<string, unknown>[];
    expect(groups.map((g) => g.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(groups.find((g) => g.id === 10)).toEqual({
      id: 10,
      name: 'leadership',
      creator_id: 9,
      date_created: 1700004100,
      description: 'The people in charge',
      members: [6, 7],
      direct_subgroup_ids: [9],
      is_system_group: false,
      can_add_members_group: { direct_members: [9], direct_subgroups: [] },
      can_join_group: 8,
      can_leave_group: 6,
      can_manage_group: { direct_members: [9], direct_subgroups: [] },
      can_mention_group: 13,
      can_remove_members_group: { direct_members: [9], direct_subgroups: [] },
      deactivated: false,
    });
    expect(groups.find((g) => g.id === 2)).toMatchObject({
      name: 'role:administrators',
      is_system_group: true,
      creator_id: null,
      date_created: null,
      members: [11],
      direct_subgroup_ids: [1],
      can_manage_group: 8,
    });
  });

  it('includes deactivated groups for clients with include_deactivated_groups', async () => {
    const body = await fetchState('hamlet@zulip.com', { include_deactivated_groups: true });
    const retired = (body.realm_user_groups as Record<string, unknown>[]).find((g) => g.id === 15);
    expect(retired).toMatchObject({ name: 'retired-group', deactivated: true });
  });

  it("shows king@lear.org only his organization's groups", async () => {
    const body = await fetchState('king@lear.org', { include_deactivated_groups: true });
    expect((body.realm_user_groups as { id: number }[]).map((g) => g.id)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('leaves the key out when the client does not ask for it', async () => {
    const body = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['drafts'] } }),
    );
    expect(body.realm_user_groups).toBeUndefined();
  });
});
