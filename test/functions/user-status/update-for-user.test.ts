// POST /users/{user_id}/status: an administrator changes another user's status, as upstream's
// update_user_status_admin (access_user_by_id for an administrator, bots refused, no `away`).
import { handler as updateForUser } from '../../../functions/user-status/update-for-user';
import { getUserStatus } from '../../../lib/store/user-status';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const post = (as: string, userId: number | string, params: Record<string, unknown>) =>
  call(updateForUser, { ...atPath('POST', '/users/{user_id}/status', { user_id: userId }), as, params });

describe('POST /users/{user_id}/status', () => {
  it("sets another user's text and emoji and tells the whole organization", async () => {
    const target = await openQueue('othello@zulip.com');
    const other = await openQueue('hamlet@zulip.com');
    expectSuccess(await post('iago@zulip.com', 12, { status_text: ' On leave ', emoji_name: 'car' }));
    const event = {
      type: 'user_status',
      user_id: 12,
      status_text: 'On leave',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    };
    expect(await target.drain()).toEqual([event]);
    expect(await other.drain()).toEqual([event]);
    expect(await getUserStatus(2, 12)).toMatchObject({ statusText: 'On leave', emojiName: 'car', emojiCode: '1f697' });
  });

  it('clears the status with an empty text and emoji name', async () => {
    expectSuccess(await post('desdemona@zulip.com', 8, { status_text: 'busy', emoji_name: 'octopus' }));
    expectSuccess(await post('desdemona@zulip.com', 8, { status_text: '', emoji_name: '' }));
    expect(await getUserStatus(2, 8)).toMatchObject({ statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
  });

  it('ignores away: an administrator does not change presence for someone else', async () => {
    const result = expectSuccess(await post('iago@zulip.com', 10, { status_text: 'x', away: 'true' }));
    expect(result.ignored_parameters_unsupported).toEqual(['away']);
  });

  it.each([
    ['hamlet@zulip.com', 12, { status_text: 'x' }, 'Insufficient permission'],
    ['shiva@zulip.com', 12, { status_text: 'x' }, 'Insufficient permission'],
    ['polonius@zulip.com', 12, { status_text: 'x' }, 'Insufficient permission'],
    ['iago@zulip.com', 16, { status_text: 'x' }, 'No such user'],
    ['iago@zulip.com', 20, { status_text: 'x' }, 'No such user'],
    ['iago@zulip.com', 999, { status_text: 'x' }, 'No such user'],
    ['iago@zulip.com', 18, { status_text: 'x' }, 'User is deactivated'],
    ['iago@zulip.com', 12, {}, 'Client did not pass any new values.'],
    [
      'iago@zulip.com',
      12,
      { status_text: 'x', emoji_code: '1f697' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    ['iago@zulip.com', 12, { emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    ['iago@zulip.com', 12, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'bogus' }, 'Invalid emoji type.'],
    // The length is checked with the parameters, before the user is read.
    ['hamlet@zulip.com', 999, { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
  ])('%s changing user %d with %j: "%s", nothing changed', async (as, userId, params, message) => {
    const queue = await openQueue('cordelia@zulip.com');
    const before = await getUserStatus(2, userId);
    expectError(await post(as, userId, params), message);
    expect(await getUserStatus(2, userId)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it('answers a path that is no user id with a 404', async () => {
    expect((await post('iago@zulip.com', 'othello@zulip.com', { status_text: 'x' })).status).toBe(404);
  });
});
