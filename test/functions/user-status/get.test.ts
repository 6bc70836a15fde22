// GET /users/{user_id}/status: the status a user set, read as upstream's get_status_backend does
// (access_user_by_id without for_admin).
import { handler as getStatus } from '../../../functions/user-status/get';
import { handler as updateStatus } from '../../../functions/user-status/update';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { setSubscribed } from '../../helpers/channels';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';

const get = (as: string, userId: number | string) =>
  call(getStatus, { ...atPath('GET', '/users/{user_id}/status', { user_id: userId }), as });
const setStatus = async (as: string, params: Record<string, unknown>) =>
  expectSuccess(await call(updateStatus, { method: 'POST', path: '/users/me/status', as, params }));

describe('GET /users/{user_id}/status', () => {
  it("answers a user's status, and {} for one who never set one", async () => {
    expect(expectSuccess(await get('hamlet@zulip.com', 12)).status).toEqual({});
    await setStatus('othello@zulip.com', { status_text: 'on vacation', emoji_name: 'car' });
    expect(expectSuccess(await get('hamlet@zulip.com', 12)).status).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    // Clearing leaves an empty status; hiding one's presence shows as away.
    await setStatus('othello@zulip.com', { status_text: '', emoji_name: '', away: 'true' });
    expect(expectSuccess(await get('polonius@zulip.com', 12)).status).toEqual({ away: true });
  });

  it.each([
    [16, 'No such user'],
    [20, 'No such user'],
    [999, 'No such user'],
    [18, 'User is deactivated'],
  ])('refuses user %d: %s', async (userId, message) => {
    expectError(await get('hamlet@zulip.com', userId), message);
  });

  it('answers a path that is no user id with a 404', async () => {
    const result = await get('hamlet@zulip.com', 'hamlet@zulip.com');
    expect(result.status).toBe(404);
  });

  describe('for a guest limited to the users it may access', () => {
    limitGuestsToAccessibleUsers();

    it('refuses one who shares no channel with it ("Insufficient permission")', async () => {
      expectSuccess(await get('polonius@zulip.com', 10));
      await setSubscribed(2, 10, 3, false);
      expectError(await get('polonius@zulip.com', 10), 'Insufficient permission');
    });
  });
});
