// HTTP Basic authentication of every apiHandler endpoint: each failure is a 401 UNAUTHORIZED with
// upstream's message and the Basic challenge, in upstream's order of checks; another scheme than
// Basic is upstream's 400 BAD_REQUEST.
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess, type CallOptions } from '../../helpers/api';
import { handler as whoAmI } from './who-am-i';

const ask = (extra: Partial<CallOptions>) => call(whoAmI, { method: 'GET', path: '/test/who_am_i', ...extra });

const keyOf = async (email: string): Promise<string> => (await usersStore.listByEmail(email))[0].apiKey;

const expectUnauthorized = (result: Awaited<ReturnType<typeof ask>>, message: string, code = 'UNAUTHORIZED'): void => {
  expectError(result, message, 401, code);
  expect(result.body).toEqual({ result: 'error', msg: message, code });
  expect(result.headers['WWW-Authenticate']).toBe('Basic realm="zulip"');
};

describe('HTTP Basic authentication', () => {
  it('authenticates a user by email and API key', async () => {
    const body = expectSuccess(await ask({ authorization: basicAuth('iago@zulip.com', await keyOf('iago@zulip.com')) }));
    expect(body).toMatchObject({ user_id: 11, realm_id: 2 });
  });

  it('compares the email case-insensitively', async () => {
    const key = await keyOf('iago@zulip.com');
    expect(expectSuccess(await ask({ authorization: basicAuth('IAGO@Zulip.Com', key) })).user_id).toBe(11);
    expect(expectSuccess(await ask({ authorization: basicAuth('aaron@zulip.com', await keyOf('AARON@zulip.com')) })).user_id).toBe(6);
  });

  it('accepts the organization subdomain of the account', async () => {
    const authorization = basicAuth('king@lear.org', await keyOf('king@lear.org'));
    expect(expectSuccess(await ask({ authorization, headers: { host: 'lear.localhost:3000' } })).realm_id).toBe(3);
  });

  it('refuses a request without an Authorization header', async () => {
    expectUnauthorized(await ask({}), 'Not logged in: API authentication or user session required');
  });

  it('refuses an empty Authorization header', async () => {
    expectUnauthorized(await ask({ authorization: '' }), 'Not logged in: API authentication or user session required');
  });

  it.each([
    ['a scheme without credentials', 'Basic'],
    ['credentials that are not base64', 'Basic !!!not-base64!!!'],
    ['base64 without a colon', `Basic ${Buffer.from('iago@zulip.com').toString('base64')}`],
    ['extra words after the credentials', `Basic ${Buffer.from('a:b').toString('base64')} more`],
  ])('refuses a malformed header: %s', async (_case, authorization) => {
    expectUnauthorized(await ask({ authorization }), 'Invalid authorization header for basic auth');
  });

  it.each([['Bearer abc'], ['Digest username="iago"'], ['Token 0123456789']])(
    'refuses the non-Basic scheme of "%s" with 400 BAD_REQUEST',
    async (authorization) => {
      const result = await ask({ authorization });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ result: 'error', msg: 'This endpoint requires HTTP basic authentication.', code: 'BAD_REQUEST' });
      expect(result.headers['WWW-Authenticate']).toBeUndefined();
    },
  );

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(33)],
    ['not alphanumeric', `${'a'.repeat(31)}-`],
    ['empty', ''],
  ])('refuses a malformed API key (%s)', async (_case, key) => {
    expectUnauthorized(await ask({ authorization: basicAuth('iago@zulip.com', key) }), 'Malformed API key');
  });

  it('refuses an API key nobody has', async () => {
    expectUnauthorized(await ask({ authorization: basicAuth('iago@zulip.com', 'Z'.repeat(32)) }), 'Invalid API key');
  });

  it("refuses another user's email with a valid API key", async () => {
    const key = await keyOf('iago@zulip.com');
    expectUnauthorized(await ask({ authorization: basicAuth('hamlet@zulip.com', key) }), 'Invalid API key');
  });

  it('refuses a deactivated user', async () => {
    const authorization = basicAuth('former@zulip.com', await keyOf('former@zulip.com'));
    expectUnauthorized(await ask({ authorization }), 'Account is deactivated', 'USER_DEACTIVATED');
  });

  it('refuses a user of a deactivated organization', async () => {
    const lear = (await realmsStore.get(3))!;
    const authorization = basicAuth('king@lear.org', await keyOf('king@lear.org'));
    await realmsStore.put({ ...lear, deactivated: true });
    try {
      expectUnauthorized(await ask({ authorization }), 'This organization has been deactivated', 'REALM_DEACTIVATED');
    } finally {
      await realmsStore.put(lear);
    }
  });

  it("refuses an account at another organization's subdomain", async () => {
    const authorization = basicAuth('iago@zulip.com', await keyOf('iago@zulip.com'));
    expectUnauthorized(
      await ask({ authorization, headers: { host: 'lear.localhost:3000' } }),
      'Account is not associated with this subdomain',
    );
  });

  it('refuses an incoming webhook bot on a normal endpoint', async () => {
    const authorization = basicAuth('webhook-bot@zulip.com', await keyOf('webhook-bot@zulip.com'));
    expectUnauthorized(await ask({ authorization }), 'This API is not available to incoming webhook bots.');
  });
});
