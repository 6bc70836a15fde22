import { handler as list } from '../../../functions/user-groups/list';
import { call, expectError, expectSuccess } from '../../helpers/api';

const get = (as: string, params: Record<string, unknown> = {}) => call(list, { method: 'GET', path: '/user_groups', as, params });
const ids = (body: Record<string, any>) => (body.user_groups as { id: number }[]).map((g) => g.id);

describe('GET /user_groups', () => {
  it('lists the active groups of the organization by id', async () => {
    expect(ids(expectSuccess(await get('hamlet@zulip.com')))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  it('adds deactivated groups with include_deactivated_groups', async () => {
    const body = expectSuccess(await get('hamlet@zulip.com', { include_deactivated_groups: true }));
    expect(ids(body)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(body.user_groups[14]).toMatchObject({ id: 15, name: 'retired-group', deactivated: true, members: [7] });
  });

  it('shows an anonymous group setting with sorted members', async () => {
    const body = expectSuccess(await get('iago@zulip.com'));
    expect(body.user_groups.find((g: { id: number }) => g.id === 14).can_manage_group).toEqual({
      direct_members: [14],
      direct_subgroups: [],
    });
  });

  it("shows king@lear.org only his organization's groups", async () => {
    expect(ids(expectSuccess(await get('king@lear.org')))).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });

  it('refuses guests and bots as upstream', async () => {
    expectError(await get('polonius@zulip.com'), 'Not allowed for guest users');
    expectError(await get('default-bot@zulip.com'), 'This endpoint does not accept bot requests.');
  });

  it('validates include_deactivated_groups', async () => {
    expectError(await get('hamlet@zulip.com', { include_deactivated_groups: 'yes' }), 'include_deactivated_groups is not valid JSON');
  });
});
