// GET /dev_list_users: the mobile app's development login list (upstream's api_dev_list_users),
// in development mode only.
import { handler as listUsers } from '../../../functions/dev/list-users';
import { call, expectError, expectSuccess } from '../../helpers/api';

const get = (host?: string) => call(listUsers, { method: 'GET', path: '/dev_list_users', ...(host ? { headers: { host } } : {}) });
const zulip = (email: string) => ({ email, realm_url: 'http://localhost:3000' });
const lear = (email: string) => ({ email, realm_url: 'http://lear.localhost:3000' });

describe('GET /dev_list_users', () => {
  afterEach(() => {
    process.env.DEVELOPMENT_MODE = 'on';
  });

  it("lists every organization's active human accounts at the bare host, administrators apart, by email, without authentication", async () => {
    const body = expectSuccess(await get('localhost:3000'));
    expect(body.direct_admins).toEqual([zulip('desdemona@zulip.com'), zulip('iago@zulip.com'), lear('king@lear.org')]);
    expect(body.direct_users).toEqual(
      [
        'AARON@zulip.com',
        'cordelia@zulip.com',
        'edgar@lear.org',
        'hamlet@zulip.com',
        'othello@zulip.com',
        'polonius@zulip.com',
        'prospero@zulip.com',
        'shiva@zulip.com',
        'ZOE@zulip.com',
      ]
        .sort((a, b) => a.localeCompare(b))
        .map((email) => (email.endsWith('@lear.org') ? lear(email) : zulip(email))),
    );
  });

  it("lists only the organization's accounts at its subdomain, and refuses an unknown one", async () => {
    expect(expectSuccess(await get('lear.localhost:3000'))).toMatchObject({
      direct_admins: [lear('king@lear.org')],
      direct_users: [lear('edgar@lear.org')],
    });
    expectError(await get('nowhere.localhost'), 'Invalid subdomain', 404, 'NONEXISTENT_SUBDOMAIN');
  });

  it.each([['unset'], ['off']])('is not available in production (DEVELOPMENT_MODE %s)', async (mode) => {
    if (mode === 'unset') delete process.env.DEVELOPMENT_MODE;
    else process.env.DEVELOPMENT_MODE = mode;
    expectError(await get('localhost:3000'), 'Endpoint not available in production.');
  });
});
