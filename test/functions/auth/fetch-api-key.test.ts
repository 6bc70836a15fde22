import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as whoAmI } from '../../lib/http/who-am-i';
import { devPassword } from '../../../lib/passwords';
import * as passwordsStore from '../../../lib/store/passwords';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';

const post = (params: Record<string, unknown>, extra: Partial<Parameters<typeof call>[1]> = {}) =>
  call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params, ...extra });

const INCORRECT = 'Your username or password is incorrect';
const RATE_LIMITED = 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers';

describe('POST /fetch_api_key', () => {
  it('returns the API key, email and id for the right password', async () => {
    const body = expectSuccess(await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }));
    const [iago] = await usersStore.listByEmail('iago@zulip.com');
    expect(body).toEqual({ result: 'success', msg: '', api_key: iago.apiKey, email: 'iago@zulip.com', user_id: 11 });
  });

  it('returns a key that authenticates later requests', async () => {
    const { api_key, email } = expectSuccess(await post({ username: 'hamlet@zulip.com', password: devPassword('hamlet@zulip.com') }));
    expect(expectSuccess(await call(whoAmI, { method: 'GET', authorization: basicAuth(email, api_key) })).user_id).toBe(10);
  });

  it('finds the account whatever the case of the email', async () => {
    expect(expectSuccess(await post({ username: 'IAGO@zulip.com', password: devPassword('iago@zulip.com') })).user_id).toBe(11);
  });

  it('refuses a wrong password with 401 AUTHENTICATION_FAILED', async () => {
    expectError(await post({ username: 'cordelia@zulip.com', password: 'wrong' }), INCORRECT, 401, 'AUTHENTICATION_FAILED');
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const unknown = await post({ username: 'nobody@zulip.com', password: 'wrong' });
    const wrong = await post({ username: 'othello@zulip.com', password: 'wrong' });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.headers).toEqual(wrong.headers);
  });

  it('refuses an empty password even for an account that has one', async () => {
    expectError(await post({ username: 'iago@zulip.com', password: '' }), INCORRECT, 401, 'AUTHENTICATION_FAILED');
  });

  it('refuses the right password of a deactivated user with 401 USER_DEACTIVATED', async () => {
    expectError(
      await post({ username: 'former@zulip.com', password: devPassword('former@zulip.com') }),
      'Account is deactivated',
      401,
      'USER_DEACTIVATED',
    );
  });

  it('refuses a user of another organization at this host with 404 "Invalid subdomain"', async () => {
    expectError(
      await post({ username: 'king@lear.org', password: devPassword('king@lear.org') }),
      'Invalid subdomain',
      404,
      'NONEXISTENT_SUBDOMAIN',
    );
  });

  it('signs in a user of the organization at its subdomain', async () => {
    const result = await post(
      { username: 'king@lear.org', password: devPassword('king@lear.org') },
      { headers: { host: 'lear.localhost:3000' } },
    );
    expect(expectSuccess(result).user_id).toBe(20);
  });

  it('refuses an unknown subdomain with 404 "Invalid subdomain"', async () => {
    const result = await post(
      { username: 'iago@zulip.com', password: devPassword('iago@zulip.com') },
      { headers: { host: 'nowhere.localhost' } },
    );
    expectError(result, 'Invalid subdomain', 404, 'NONEXISTENT_SUBDOMAIN');
  });

  it('refuses the right password in a deactivated organization with 401 REALM_DEACTIVATED', async () => {
    const lear = (await realmsStore.get(3))!;
    await realmsStore.put({ ...lear, deactivated: true });
    try {
      const result = await post(
        { username: 'edgar@lear.org', password: devPassword('edgar@lear.org') },
        { headers: { host: 'lear.localhost' } },
      );
      expectError(result, 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
    } finally {
      await realmsStore.put(lear);
    }
  });

  it('refuses a username that is not an email', async () => {
    expectError(await post({ username: 'iago', password: 'x' }), 'Enter a valid email address.');
  });

  it.each(['username', 'password'])('requires %s', async (name) => {
    const params: Record<string, string> = { username: 'iago@zulip.com', password: 'x' };
    delete params[name];
    const result = await post(params);
    expectError(result, `Missing '${name}' argument`, 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('ignores an Authorization header', async () => {
    const result = await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, { authorization: 'Basic garbage' });
    expect(expectSuccess(result).user_id).toBe(11);
  });

  it('refuses a username after 5 failed attempts, even with the right password, and says when to retry', async () => {
    for (let i = 0; i < 5; i += 1)
      expectError(await post({ username: 'shiva@zulip.com', password: `wrong${i}` }), INCORRECT, 401, 'AUTHENTICATION_FAILED');
    const limited = await post({ username: 'shiva@zulip.com', password: devPassword('shiva@zulip.com') });
    expectError(limited, RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
    expect(limited.body['retry-after']).toBeGreaterThan(1790);
    expect(limited.body['retry-after']).toBeLessThanOrEqual(1800);
    expect(Number(limited.headers['Retry-After'] ?? limited.headers['retry-after'])).toBeGreaterThan(1790);
    expect(await passwordsStore.getLoginFailures(2, 'shiva@zulip.com')).toHaveLength(5);
  });

  it('limits an unknown email the same way, so the limit does not tell which emails exist', async () => {
    for (let i = 0; i < 5; i += 1) await post({ username: 'ghost@zulip.com', password: 'wrong' });
    expectError(await post({ username: 'ghost@zulip.com', password: 'wrong' }), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
  });

  it('does not count successful logins against the limit', async () => {
    for (let i = 0; i < 6; i += 1)
      expectSuccess(await post({ username: 'prospero@zulip.com', password: devPassword('prospero@zulip.com') }));
    expect(await passwordsStore.getLoginFailures(2, 'prospero@zulip.com')).toEqual([]);
  });

  it('limits one username without limiting another', async () => {
    for (let i = 0; i < 5; i += 1) await post({ username: 'ZOE@zulip.com', password: 'wrong' });
    expectError(await post({ username: 'zoe@zulip.com', password: devPassword('ZOE@zulip.com') }), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
    expect(expectSuccess(await post({ username: 'AARON@zulip.com', password: devPassword('AARON@zulip.com') })).user_id).toBe(6);
  });
});
