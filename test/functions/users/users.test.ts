// GET /users, GET /users/{user_id}, GET /users/{email} and GET /users/me, against the
// development data (organization 'zulip': users 6-18, Polonius 13 a guest, bots 16 and 17,
// Former 18 deactivated; 'lear': users 20-21).
import { handler as register } from '../../../functions/events/register';
import { handler as getUser } from '../../../functions/users/get';
import { handler as listUsers } from '../../../functions/users/list';
import { handler as me } from '../../../functions/users/me';
import * as usersStore from '../../../lib/store/users';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';
import { call, expectError, expectSuccess } from '../../helpers/api';

const list = (as: string, params: Record<string, unknown> = {}) => call(listUsers, { method: 'GET', path: '/users', as, params });
const one = (as: string, idOrEmail: string, params: Record<string, unknown> = {}) =>
  call(getUser, {
    method: 'GET',
    path: `/users/${encodeURIComponent(idOrEmail)}`,
    routeKey: 'GET /users/{user_id_or_email}',
    pathParameters: { user_id_or_email: encodeURIComponent(idOrEmail) },
    as,
    params,
  });
const own = (as: string, params: Record<string, unknown> = {}) => call(me, { method: 'GET', path: '/users/me', as, params });
const userIds = (users: { user_id: number }[]) => users.map((u) => u.user_id);

const HAMLET = {
  email: 'hamlet@zulip.com',
  user_id: 10,
  avatar_version: 1,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  role: 400,
  is_bot: false,
  full_name: 'King Hamlet',
  is_active: true,
  delivery_email: 'hamlet@zulip.com',
};

describe('GET /users', () => {
  it('lists every user of the organization by id, bots and deactivated users included', async () => {
    const body = expectSuccess(await list('iago@zulip.com'));
    expect(userIds(body.members)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(body.members.find((u: { user_id: number }) => u.user_id === 18).is_active).toBe(false);
  });

  it('gives each user the object register gives in realm_users (one builder)', async () => {
    const state = expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: 'iago@zulip.com',
        params: { fetch_event_types: ['realm_user'], client_gravatar: false },
      }),
    );
    const body = expectSuccess(await list('iago@zulip.com', { client_gravatar: false, include_custom_profile_fields: true }));
    const fromRegister = [...state.realm_users, ...state.realm_non_active_users].sort((a, b) => a.user_id - b.user_id);
    expect(body.members).toEqual(fromRegister);
  });

  it('sends null avatar URLs by default (client_gravatar), and URLs when asked not to', async () => {
    const byDefault = expectSuccess(await list('iago@zulip.com')).members;
    expect(byDefault.every((u: { avatar_url: unknown }) => u.avatar_url === null)).toBe(true);
    const withUrls = expectSuccess(await list('iago@zulip.com', { client_gravatar: false })).members;
    expect(withUrls[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  });

  it('includes profile_data only when include_custom_profile_fields is true, and never for bots', async () => {
    const without = expectSuccess(await list('iago@zulip.com')).members;
    expect(without.some((u: Record<string, unknown>) => 'profile_data' in u)).toBe(false);
    const withData = expectSuccess(await list('iago@zulip.com', { include_custom_profile_fields: true })).members;
    const hamlet = withData.find((u: { user_id: number }) => u.user_id === 10);
    expect(hamlet.profile_data['2']).toEqual({
      value: 'I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius',
      rendered_value: '<p>I am:</p>\n<ul>\n<li>The prince of Denmark</li>\n<li>Nephew to the usurping Claudius</li>\n</ul>',
    });
    expect(withData.find((u: { user_id: number }) => u.user_id === 16)).not.toHaveProperty('profile_data');
    expect(withData.find((u: { user_id: number }) => u.user_id === 6).profile_data).toEqual({});
  });

  it('limits the list to user_ids, leaving out ids of no user here', async () => {
    const body = expectSuccess(await list('iago@zulip.com', { user_ids: [10, 20, 9999, 8] }));
    expect(userIds(body.members)).toEqual([8, 10]);
  });

  it("never lists another organization's users", async () => {
    expect(userIds(expectSuccess(await list('king@lear.org')).members)).toEqual([20, 21]);
  });

  it('refuses a client_gravatar that is not a boolean', async () => {
    expectError(await list('iago@zulip.com', { client_gravatar: 'yes' }), 'client_gravatar is not valid JSON');
  });

  it('refuses user_ids that are not a list of integers', async () => {
    expectError(await list('iago@zulip.com', { user_ids: [1, 'x'] }), 'user_ids[1] is not an integer');
  });
});

describe('GET /users/{user_id} and GET /users/{email}', () => {
  it('returns one user by id', async () => {
    const body = expectSuccess(await one('iago@zulip.com', '10'));
    expect(body).toEqual({
      result: 'success',
      msg: '',
      user: { ...HAMLET, timezone: expect.any(String), date_joined: expect.any(String), avatar_url: null },
    });
  });

  it('returns the same user by email, in any case', async () => {
    const byId = expectSuccess(await one('iago@zulip.com', '10')).user;
    expect(expectSuccess(await one('iago@zulip.com', 'HAMLET@Zulip.com')).user).toEqual(byId);
  });

  it('finds a user by the placeholder address user{id}@host', async () => {
    expect(expectSuccess(await one('iago@zulip.com', 'user10@localhost')).user.user_id).toBe(10);
  });

  it('returns deactivated users and bots', async () => {
    expect(expectSuccess(await one('iago@zulip.com', '18')).user).toMatchObject({ user_id: 18, is_active: false });
    expect(expectSuccess(await one('iago@zulip.com', '16')).user).toMatchObject({
      user_id: 16,
      is_bot: true,
      bot_type: expect.any(Number),
    });
  });

  it('includes profile_data with include_custom_profile_fields', async () => {
    const body = expectSuccess(await one('iago@zulip.com', '10', { include_custom_profile_fields: true, client_gravatar: false }));
    expect(body.user.profile_data['3']).toEqual({ value: 'Dark chocolate', rendered_value: '<p>Dark chocolate</p>' });
    expect(body.user.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });

  it.each([
    ['an unknown id', '9999'],
    ["another organization's user, by id", '20'],
    ["another organization's user, by email", 'king@lear.org'],
    ['an unknown email', 'nobody@zulip.com'],
    ['a placeholder address of another host', 'user10@example.com'],
  ])('answers "No such user" for %s', async (_what, idOrEmail) => {
    expectError(await one('iago@zulip.com', idOrEmail), 'No such user');
  });
});

describe('GET /users/me', () => {
  it('returns the caller with its avatar URL, profile data and max_message_id', async () => {
    const body = expectSuccess(await own('hamlet@zulip.com'));
    expect(body).toMatchObject({ ...HAMLET, max_message_id: 14 });
    expect(body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    expect(body.profile_data['3']).toEqual({ value: 'Dark chocolate', rendered_value: '<p>Dark chocolate</p>' });
  });

  it('answers -1 as max_message_id for a user with no messages', async () => {
    const hamlet = (await usersStore.get(2, 10))!;
    await usersStore.put({ ...hamlet, id: 99, email: 'newcomer@zulip.com', fullName: 'Newcomer', apiKey: 'N'.repeat(32) });
    expect(expectSuccess(await own('newcomer@zulip.com')).max_message_id).toBe(-1);
  });

  it('lists parameters as unsupported, as it takes none', async () => {
    expect(expectSuccess(await own('hamlet@zulip.com', { client_gravatar: true })).ignored_parameters_unsupported).toEqual([
      'client_gravatar',
    ]);
  });
});

describe('when the organization limits which users guests can see', () => {
  limitGuestsToAccessibleUsers();

  it('lists for a guest only the users it may see, and every bot', async () => {
    // Former (18) shares no channel or conversation with Polonius.
    expect(userIds(expectSuccess(await list('polonius@zulip.com')).members)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
  });

  it('answers "Insufficient permission" when a guest asks for a user it may not see', async () => {
    expectError(await one('polonius@zulip.com', '18'), 'Insufficient permission');
    expectError(await one('polonius@zulip.com', 'former@zulip.com'), 'Insufficient permission');
  });

  it('still gives a guest the users it may see', async () => {
    expect(expectSuccess(await one('polonius@zulip.com', '10')).user.user_id).toBe(10);
  });

  it('does not limit a member', async () => {
    expect(expectSuccess(await one('hamlet@zulip.com', '18')).user.user_id).toBe(18);
  });
});
