import { handler } from '../../../functions/presence/get-user';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { U, advanceSeconds, frozenPresenceTests, putRow, row } from './presence-fixture';

const get = (as: string, userIdOrEmail: string, params: Record<string, unknown> = {}) =>
  call(handler, {
    method: 'GET',
    path: `/users/${encodeURIComponent(userIdOrEmail)}/presence`,
    routeKey: 'GET /users/{user_id_or_email}/presence',
    pathParameters: { user_id_or_email: encodeURIComponent(userIdOrEmail) },
    as,
    params,
  });

let T: number;
frozenPresenceTests((now) => (T = now));

describe('GET /users/{user_id_or_email}/presence', () => {
  it('returns the status and timestamp of a user named by email', async () => {
    const body = expectSuccess(await get('hamlet@zulip.com', 'iago@zulip.com'));
    expect(body).toEqual({
      result: 'success',
      msg: '',
      presence: { website: { status: 'active', timestamp: T - 30 }, aggregated: { status: 'active', timestamp: T - 30 } },
    });
  });

  it('finds a user by id, and by email in any case', async () => {
    const byEmail = expectSuccess(await get('hamlet@zulip.com', 'iago@zulip.com')).presence;
    expect(expectSuccess(await get('hamlet@zulip.com', String(U.iago))).presence).toEqual(byEmail);
    expect(expectSuccess(await get('hamlet@zulip.com', 'IAGO@Zulip.com')).presence).toEqual(byEmail);
  });

  it('shows the aggregated status as offline after 200 s, leaving the website entry', async () => {
    // hamlet: idle, connected 100 s ago.
    expect(expectSuccess(await get('iago@zulip.com', 'hamlet@zulip.com')).presence.aggregated).toEqual({
      status: 'idle',
      timestamp: T - 100,
    });
    advanceSeconds(101);
    expect(expectSuccess(await get('iago@zulip.com', 'hamlet@zulip.com')).presence).toEqual({
      website: { status: 'idle', timestamp: T - 100 },
      aggregated: { status: 'offline', timestamp: T - 100 },
    });
  });

  it('lists slim_presence as an ignored parameter and answers the legacy format', async () => {
    const body = expectSuccess(await get('iago@zulip.com', 'hamlet@zulip.com', { slim_presence: true }));
    expect(body).toEqual({
      result: 'success',
      msg: '',
      presence: { website: { status: 'idle', timestamp: T - 100 }, aggregated: { status: 'idle', timestamp: T - 100 } },
      ignored_parameters_unsupported: ['slim_presence'],
    });
  });

  it("uses the user's date_joined for timestamps never set", async () => {
    const othello = (await row(U.othello))!;
    await putRow({ ...othello, lastActiveTime: null, lastConnectedTime: null });
    const body = expectSuccess(await get('hamlet@zulip.com', String(U.othello)));
    expect(body.presence.website).toEqual({ status: 'active', timestamp: 1700001200 });
  });

  it('answers a bot', async () => {
    expectSuccess(await get('default-bot@zulip.com', 'iago@zulip.com'));
  });

  it.each([
    ['an unknown email', 'nobody@zulip.com'],
    ['an unknown id', '99999'],
    ['a deactivated user (who has a row)', 'former@zulip.com'],
    ['a deactivated user by id', String(U.former)],
    ["another organization's user", 'king@lear.org'],
    ["another organization's user by id", String(U.king)],
  ])('refuses %s with "No such user"', async (_what, target) => {
    expectError(await get('hamlet@zulip.com', target), 'No such user');
  });

  it('refuses a bot target', async () => {
    expectError(await get('hamlet@zulip.com', 'default-bot@zulip.com'), 'Presence is not supported for bot users.');
    expectError(await get('hamlet@zulip.com', String(U.webhookBot)), 'Presence is not supported for bot users.');
  });

  it('names the path as sent when the user has no presence data', async () => {
    expectError(await get('hamlet@zulip.com', 'AARON@zulip.com'), 'No presence data for AARON@zulip.com');
    expectError(await get('hamlet@zulip.com', String(U.aaron)), `No presence data for ${U.aaron}`);
  });
});
