import { handler as fetchApiKey } from '../../../functions/dev/fetch-api-key';
import { handler as whoAmI } from '../../lib/http/who-am-i';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';

const post = (params: Record<string, unknown>, extra: Partial<Parameters<typeof call>[1]> = {}) =>
  call(fetchApiKey, { method: 'POST', path: '/dev_fetch_api_key', params, ...extra });

describe('POST /dev_fetch_api_key', () => {
  afterEach(() => {
    process.env.DEVELOPMENT_MODE = 'on';
  });

  it.each([
    ['iago@zulip.com', 11],
    ['king@lear.org', 20],
  ])('returns the API key, email and id of %s', async (email, userId) => {
    const body = expectSuccess(await post({ username: email }));
    const [stored] = await usersStore.listByEmail(email);
    expect(body).toEqual({ result: 'success', msg: '', api_key: stored.apiKey, email, user_id: userId });
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('returns a key that authenticates later requests', async () => {
    const { api_key, email } = expectSuccess(await post({ username: 'iago@zulip.com' }));
    const body = expectSuccess(await call(whoAmI, { method: 'GET', authorization: basicAuth(email, api_key) }));
    expect(body.user_id).toBe(11);
  });

  it('finds the user whatever the case of the email', async () => {
    expect(expectSuccess(await post({ username: 'Iago@Zulip.COM' })).user_id).toBe(11);
  });

  it('ignores an Authorization header', async () => {
    const result = await post({ username: 'hamlet@zulip.com' }, { authorization: 'Basic garbage' });
    expect(expectSuccess(result).user_id).toBe(10);
  });

  it('refuses an unknown user with 401 AUTHENTICATION_FAILED', async () => {
    expectError(await post({ username: 'nobody@zulip.com' }), 'Your username or password is incorrect', 401, 'AUTHENTICATION_FAILED');
  });

  it('refuses a deactivated user with 401 USER_DEACTIVATED', async () => {
    expectError(await post({ username: 'former@zulip.com' }), 'Account is deactivated', 401, 'USER_DEACTIVATED');
  });

  it('requires username', async () => {
    const result = await post({});
    expectError(result, "Missing 'username' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expect(result.body.var_name).toBe('username');
  });

  it('refuses a username that is not an email', async () => {
    expectError(await post({ username: 'iago' }), 'Enter a valid email address.');
  });

  it('only finds accounts of the organization at a subdomain', async () => {
    expectError(
      await post({ username: 'iago@zulip.com' }, { headers: { host: 'lear.localhost:3000' } }),
      'Your username or password is incorrect',
      401,
      'AUTHENTICATION_FAILED',
    );
    expectError(
      await post({ username: 'iago@zulip.com' }, { headers: { host: 'nowhere.localhost' } }),
      'Invalid subdomain',
      404,
      'NONEXISTENT_SUBDOMAIN',
    );
  });

  it.each([
    ['unset', undefined],
    ['empty', ''],
    ['off', 'off'],
    ['true', 'true'],
    ['ON', 'ON'],
  ])('answers only "Endpoint not available in production." unless DEVELOPMENT_MODE=on (%s)', async (_case, value) => {
    if (value === undefined) delete process.env.DEVELOPMENT_MODE;
    else process.env.DEVELOPMENT_MODE = value;
    expectError(await post({ username: 'iago@zulip.com' }), 'Endpoint not available in production.');
    expectError(await post({}), 'Endpoint not available in production.');
  });

  it('is the same sent multipart or in the query string', async () => {
    for (const encoding of ['multipart', 'query'] as const) {
      expect(expectSuccess(await post({ username: 'iago@zulip.com' }, { encoding })).user_id).toBe(11);
    }
  });
});
