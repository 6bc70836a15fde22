import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as whoAmI } from '../../lib/http/who-am-i';
import { advanceClock, resetClock } from '../../../lib/clock';
import { config } from '../../../lib/config';
import { devPassword, hashPassword, verifyPassword } from '../../../lib/passwords';
import * as passwordsStore from '../../../lib/store/passwords';
import * as rateLimitsStore from '../../../lib/store/rate-limits';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';

const post = (params: Record<string, unknown>, extra: Partial<Parameters<typeof call>[1]> = {}) =>
  call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params, ...extra });

const INCORRECT = 'Your username or password is incorrect';
/** The attempts counted against a username of the zulip organization (id 2). */
const attemptsOf = async (username: string) => (await rateLimitsStore.getAttempts('authenticate_by_username', `2:${username}`)).times;

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
    // Upstream's rate limit headers: the rule's count, none left, and when it frees up (epoch seconds).
    expect(limited.headers['X-RateLimit-Limit']).toBe('5');
    expect(limited.headers['X-RateLimit-Remaining']).toBe('0');
    expect(Number(limited.headers['X-RateLimit-Reset']) - Date.now() / 1000).toBeGreaterThan(1790);
    expect(await attemptsOf('shiva@zulip.com')).toHaveLength(5);
  });

  it('limits an unknown email the same way, so the limit does not tell which emails exist', async () => {
    for (let i = 0; i < 5; i += 1) await post({ username: 'ghost@zulip.com', password: 'wrong' });
    expectError(await post({ username: 'ghost@zulip.com', password: 'wrong' }), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
  });

  it('does not count successful logins against the limit', async () => {
    for (let i = 0; i < 6; i += 1)
      expectSuccess(await post({ username: 'prospero@zulip.com', password: devPassword('prospero@zulip.com') }));
    expect(await attemptsOf('prospero@zulip.com')).toEqual([]);
  });

  it('limits one username without limiting another', async () => {
    for (let i = 0; i < 5; i += 1) await post({ username: 'ZOE@zulip.com', password: 'wrong' });
    expectError(await post({ username: 'zoe@zulip.com', password: devPassword('ZOE@zulip.com') }), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
    expect(expectSuccess(await post({ username: 'AARON@zulip.com', password: devPassword('AARON@zulip.com') })).user_id).toBe(6);
  });

  describe('under concurrent attempts', () => {
    it('answers at most 5 of 20 parallel wrong passwords for one username with 401, the rest with 429', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post({ username: 'polonius@zulip.com', password: `wrong${i}` }, { sourceIp: '198.51.100.20' }),
        ),
      );
      const refused = results.filter((r) => r.status === 401);
      const limited = results.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThanOrEqual(5);
      expect(refused.length + limited.length).toBe(20);
      for (const r of refused) expectError(r, INCORRECT, 401, 'AUTHENTICATION_FAILED');
      for (const r of limited) expectError(r, RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
      expect((await attemptsOf('polonius@zulip.com')).length).toBe(refused.length);
      expectError(
        await post({ username: 'polonius@zulip.com', password: devPassword('polonius@zulip.com') }, { sourceIp: '198.51.100.20' }),
        RATE_LIMITED,
        429,
        'RATE_LIMIT_HIT',
      );
    });
  });

  describe('after the window', () => {
    afterEach(() => resetClock());

    it('signs in with the right password once the oldest failure is 30 minutes old', async () => {
      const from = { sourceIp: '198.51.100.30' };
      for (let i = 0; i < 5; i += 1) await post({ username: 'desdemona@zulip.com', password: 'wrong' }, from);
      expectError(await post({ username: 'desdemona@zulip.com', password: 'wrong' }, from), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
      advanceClock(1800 * 1000 + 1);
      const body = expectSuccess(await post({ username: 'desdemona@zulip.com', password: devPassword('desdemona@zulip.com') }, from));
      expect(body.email).toBe('desdemona@zulip.com');
      expect(await attemptsOf('desdemona@zulip.com')).toEqual([]);
    });
  });

  describe('the window', () => {
    afterEach(() => resetClock());

    it('slides, as upstream: once the oldest failure leaves it, one more attempt is admitted, not five', async () => {
      const lear = (password: string) =>
        post({ username: 'edgar@lear.org', password }, { headers: { host: 'lear.localhost' }, sourceIp: '198.51.100.50' });
      expectError(await lear('wrong'), INCORRECT, 401, 'AUTHENTICATION_FAILED');
      advanceClock(600 * 1000);
      for (let i = 0; i < 4; i += 1) expectError(await lear('wrong'), INCORRECT, 401, 'AUTHENTICATION_FAILED');
      advanceClock(1200 * 1000 + 1000);
      expectError(await lear('wrong'), INCORRECT, 401, 'AUTHENTICATION_FAILED');
      const limited = await lear(devPassword('edgar@lear.org'));
      expectError(limited, RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
      // The next oldest failure, 10 minutes younger, leaves the window 10 minutes less 1 s from now.
      expect(limited.body['retry-after']).toBeGreaterThan(590);
      expect(limited.body['retry-after']).toBeLessThanOrEqual(599);
    });
  });

  describe('per client address', () => {
    const restore = { ...process.env };
    beforeEach(() => {
      process.env.LOGIN_ADDRESS_ATTEMPTS = '3';
    });
    afterEach(() => {
      process.env.LOGIN_ADDRESS_ATTEMPTS = restore.LOGIN_ADDRESS_ATTEMPTS;
      if (restore.LOGIN_ADDRESS_ATTEMPTS === undefined) delete process.env.LOGIN_ADDRESS_ATTEMPTS;
      resetClock();
    });

    it('refuses an address that made the limit of attempts in a minute, whatever the usernames, and says when to retry', async () => {
      const from = { sourceIp: '203.0.113.7' };
      for (const name of ['aaron', 'cordelia', 'othello'])
        expectError(await post({ username: `${name}@zulip.com`, password: 'wrong' }, from), INCORRECT, 401, 'AUTHENTICATION_FAILED');
      const limited = await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, from);
      expectError(limited, RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
      expect(limited.body['retry-after']).toBeGreaterThan(50);
      expect(limited.body['retry-after']).toBeLessThanOrEqual(60);
      expect(Number(limited.headers['Retry-After'])).toBeLessThanOrEqual(60);
      expect(limited.headers['X-RateLimit-Limit']).toBe('3');
      // The refused attempt counted against neither the address nor the username.
      expect(await attemptsOf('iago@zulip.com')).toEqual([]);
      expect((await rateLimitsStore.getAttempts('authenticate_by_ip', '203.0.113.7')).times).toHaveLength(3);
    });

    it('still serves another address, and the same one after a minute', async () => {
      const from = { sourceIp: '203.0.113.8' };
      for (let i = 0; i < 3; i += 1) await post({ username: 'nobody@zulip.com', password: 'wrong' }, from);
      expectError(await post({ username: 'iago@zulip.com', password: 'x' }, from), RATE_LIMITED, 429, 'RATE_LIMIT_HIT');
      expect(
        expectSuccess(await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, { sourceIp: '203.0.113.9' }))
          .user_id,
      ).toBe(11);
      advanceClock(60 * 1000 + 1);
      expect(expectSuccess(await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, from)).user_id).toBe(11);
    });

    it("counts every attempt of an address, successful ones included, as upstream's api_by_ip", async () => {
      const from = { sourceIp: '203.0.113.10' };
      for (let i = 0; i < 3; i += 1)
        expectSuccess(await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, from));
      expectError(
        await post({ username: 'iago@zulip.com', password: devPassword('iago@zulip.com') }, from),
        RATE_LIMITED,
        429,
        'RATE_LIMIT_HIT',
      );
    });
  });

  describe('password hashes', () => {
    // The configured cost (the tests': config.passwordCost; production's is pinned in config.test.ts).
    const cost = config.passwordCost();
    const CURRENT_PREFIX = `scrypt$${cost.N}$${cost.r}$${cost.p}$`;

    it('hashes at a cost other than the seeded one, so that a first login upgrades the hash', () => {
      expect(CURRENT_PREFIX).not.toBe('scrypt$1024$8$1$');
    });

    it('replaces a seeded hash of the development cost with one of the current cost after a successful login, which still verifies', async () => {
      const before = (await passwordsStore.getPasswordHash(12))!;
      expect(before.startsWith('scrypt$1024$8$1$')).toBe(true);
      expectSuccess(
        await post({ username: 'othello@zulip.com', password: devPassword('othello@zulip.com') }, { sourceIp: '198.51.100.40' }),
      );
      const after = (await passwordsStore.getPasswordHash(12))!;
      expect(after.startsWith(CURRENT_PREFIX)).toBe(true);
      expect(await verifyPassword(devPassword('othello@zulip.com'), after)).toBe(true);
      expect(
        expectSuccess(
          await post({ username: 'othello@zulip.com', password: devPassword('othello@zulip.com') }, { sourceIp: '198.51.100.40' }),
        ).user_id,
      ).toBe(12);
      expect(await passwordsStore.getPasswordHash(12)).toBe(after);
    });

    it('replaces a hash of the previous cost (N = 2^15)', async () => {
      await passwordsStore.putPasswordHash(10, await hashPassword(devPassword('hamlet@zulip.com'), { N: 2 ** 15, r: 8, p: 1 }));
      expectSuccess(await post({ username: 'hamlet@zulip.com', password: devPassword('hamlet@zulip.com') }, { sourceIp: '198.51.100.41' }));
      const after = (await passwordsStore.getPasswordHash(10))!;
      expect(after.startsWith(CURRENT_PREFIX)).toBe(true);
      expect(await verifyPassword(devPassword('hamlet@zulip.com'), after)).toBe(true);
    });

    it('keeps a hash of an older cost after a wrong password', async () => {
      const before = await passwordsStore.getPasswordHash(8);
      expectError(
        await post({ username: 'cordelia@zulip.com', password: 'wrong' }, { sourceIp: '198.51.100.42' }),
        INCORRECT,
        401,
        'AUTHENTICATION_FAILED',
      );
      expect(await passwordsStore.getPasswordHash(8)).toBe(before);
    });

    it('does not overwrite a password changed since the old hash was read', async () => {
      const changed = await hashPassword('a new password', { N: 2 ** 10, r: 8, p: 1 });
      await passwordsStore.putPasswordHash(18, changed);
      expect(await passwordsStore.replacePasswordHash(18, 'scrypt$1024$8$1$stale$stale', 'replacement')).toBe(false);
      expect(await passwordsStore.getPasswordHash(18)).toBe(changed);
    });
  });
});
