import { handler as update } from '../../../functions/user-groups/update';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { deactivateGroup, storedGroup } from './helpers';
import fixture from '../../../seed/dev-realm.json';

const post = deactivateGroup;
const stored = storedGroup;

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  it.each([
    [9, 'a subgroup of leadership'],
    [11, "Denmark's can_remove_subscribers_group"],
    [12, "the organization's can_create_web_public_channel_group"],
    [13, "leadership's can_mention_group"],
  ])('answers the expected objections for group %i (%s) and keeps it active', async (groupId) => {
    const expected = (fixture.expected_deactivation as unknown as Record<string, { code: string; objections: unknown[] }>)[String(groupId)];
    const result = await post('iago@zulip.com', groupId);
    expectError(result, 'Cannot deactivate user group in use.', 400, expected.code);
    expect(result.body.objections).toEqual(expected.objections);
    expect((await stored(groupId))?.deactivated).toBe(false);
  });

  it('lets prospero, who manages design-reviewers, deactivate it', async () => {
    expectSuccess(await post('prospero@zulip.com', 14));
    expect((await stored(14))?.deactivated).toBe(true);
  });

  it('lets iago deactivate design-reviewers because administrators manage all groups', async () => {
    await update_reactivate(14);
    expectSuccess(await post('iago@zulip.com', 14));
    expect((await stored(14))?.deactivated).toBe(true);
  });

  it('refuses hamlet, who does not manage design-reviewers, with "Insufficient permission"', async () => {
    await update_reactivate(14);
    expectError(await post('hamlet@zulip.com', 14), 'Insufficient permission');
    expect((await stored(14))?.deactivated).toBe(false);
  });

  it('refuses the guest polonius with "Insufficient permission"', async () => {
    expectError(await post('polonius@zulip.com', 14), 'Insufficient permission');
    expect((await stored(14))?.deactivated).toBe(false);
  });

  it('answers "User group is deactivated." for the already deactivated retired-group', async () => {
    expectError(await post('iago@zulip.com', 15), 'User group is deactivated.');
    expect((await stored(15))?.deactivated).toBe(true);
  });

  it('answers "Insufficient permission" for a system group, even to the owner', async () => {
    expectError(await post('desdemona@zulip.com', 1), 'Insufficient permission');
    expect((await stored(1))?.deactivated).toBe(false);
  });

  it('answers "Invalid user group" for an unknown id', async () => {
    expectError(await post('iago@zulip.com', 999999), 'Invalid user group');
  });

  it('answers "Invalid user group" to king@lear.org for every group of the other organization', async () => {
    for (const group of fixture.user_groups.filter((g) => g.realm_id === 2)) {
      expectError(await post('king@lear.org', group.id), 'Invalid user group');
    }
    expect((await stored(14))?.deactivated).toBe(false);
  });

  it('answers "Invalid user group" to iago for the other organization\'s group and leaves it active', async () => {
    expectError(await post('iago@zulip.com', 29), 'Invalid user group');
    expect((await stored(29, 3))?.deactivated).toBe(false);
  });

  it('allows deactivating a subgroup once its supergroup is deactivated', async () => {
    // hamletcharacters (9) is used only as a subgroup of leadership (10), which nothing uses.
    expectSuccess(await post('desdemona@zulip.com', 10));
    expectSuccess(await post('iago@zulip.com', 9));
    expect((await stored(9))?.deactivated).toBe(true);
  });

  it('ignores a group setting that names the group when the group holding it is deactivated', async () => {
    // mention-managers (13) is used only by leadership's (10) can_mention_group.
    if (!(await stored(10))?.deactivated) expectSuccess(await post('desdemona@zulip.com', 10));
    expectSuccess(await post('iago@zulip.com', 13));
    expect((await stored(13))?.deactivated).toBe(true);
  });

  it('is a 404 for a path id that is not a number', async () => {
    const result = await post('iago@zulip.com', 'abc');
    expect(result.status).toBe(404);
  });
});

const update_reactivate = async (groupId: number): Promise<void> => {
  const group = await stored(groupId);
  if (!group?.deactivated) return;
  expectSuccess(
    await call(update, {
      method: 'PATCH',
      path: `/user_groups/${groupId}`,
      routeKey: 'PATCH /user_groups/{user_group_id}',
      pathParameters: { user_group_id: String(groupId) },
      params: { deactivated: false },
      as: 'iago@zulip.com',
    }),
  );
};
