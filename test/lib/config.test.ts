// Development mode is on only by name (DEVELOPMENT_MODE=on), and outside it a secret never falls
// back to a known string. The tests' global setup turns development mode on; each test here sets
// what it needs and the afterEach puts that back.
import { config } from '../../lib/config';

const SECRETS = [
  ['UPLOAD_URL_SECRET', config.uploadUrlSecret],
  ['DEV_PASSWORD_SECRET', config.devPasswordSecret],
] as const;

const setEnv = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

const PASSWORD_COST_VARS = ['PASSWORD_SCRYPT_N', 'PASSWORD_SCRYPT_R', 'PASSWORD_SCRYPT_P'];

describe('config', () => {
  const saved = {
    DEVELOPMENT_MODE: process.env.DEVELOPMENT_MODE,
    ...Object.fromEntries([...SECRETS.map(([n]) => n), ...PASSWORD_COST_VARS].map((n) => [n, process.env[n]])),
  };

  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) setEnv(name, value);
  });

  it.each([
    ['unset', undefined, false],
    ['empty', '', false],
    ['off', 'off', false],
    ['true', 'true', false],
    ['production', 'production', false],
    ['on', 'on', true],
  ])('with DEVELOPMENT_MODE %s (%p), isDevelopment() is %p', (_case, value, expected) => {
    setEnv('DEVELOPMENT_MODE', value);
    expect(config.isDevelopment()).toBe(expected);
  });

  it('ignores CHAT_ENV, which used to make development mode the default', () => {
    setEnv('DEVELOPMENT_MODE', undefined);
    process.env.CHAT_ENV = 'development';
    try {
      expect(config.isDevelopment()).toBe(false);
    } finally {
      delete process.env.CHAT_ENV;
    }
  });

  describe.each(SECRETS)('%s', (name, read) => {
    it('is the value set, in either mode', () => {
      process.env[name] = 'a-secret-of-this-deployment';
      for (const mode of ['on', undefined]) {
        setEnv('DEVELOPMENT_MODE', mode);
        expect(read()).toBe('a-secret-of-this-deployment');
      }
    });

    it('falls back to the known "development" only in development mode', () => {
      setEnv(name, undefined);
      setEnv('DEVELOPMENT_MODE', 'on');
      expect(read()).toBe('development');
    });

    it.each([
      ['unset', undefined],
      ['empty', ''],
    ])('throws when %s outside development mode', (_case, value) => {
      setEnv(name, value);
      setEnv('DEVELOPMENT_MODE', undefined);
      expect(read).toThrow(`${name} must be set (or DEVELOPMENT_MODE=on, for development only)`);
    });
  });

  describe('passwordCost', () => {
    it("is OWASP's scrypt cost, N = 2^17, r = 8, p = 1, when nothing is configured", () => {
      for (const name of PASSWORD_COST_VARS) setEnv(name, undefined);
      expect(config.passwordCost()).toEqual({ N: 131072, r: 8, p: 1 });
    });

    it('is the configured cost (the tests configure a cheap one)', () => {
      setEnv('PASSWORD_SCRYPT_N', '2048');
      setEnv('PASSWORD_SCRYPT_R', '4');
      setEnv('PASSWORD_SCRYPT_P', '2');
      expect(config.passwordCost()).toEqual({ N: 2048, r: 4, p: 2 });
    });

    it.each([['1000'], ['1'], ['abc']])('refuses an N that is not a power of two above 1 (%s)', (value) => {
      setEnv('PASSWORD_SCRYPT_N', value);
      expect(() => config.passwordCost()).toThrow('PASSWORD_SCRYPT_N must be');
    });
  });
});
