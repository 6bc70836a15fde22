import { handler as serverSettings } from '../../../functions/auth/server-settings';
import { SERVICE_VERSION } from '../../../lib/config';
import { call, expectError, expectSuccess } from '../../helpers/api';

const get = (extra: Partial<Parameters<typeof call>[1]> = {}) =>
  call(serverSettings, { method: 'GET', path: '/server_settings', ...extra });

describe('GET /server_settings', () => {
  afterEach(() => {
    process.env.DEVELOPMENT_MODE = 'on';
  });

  it('describes the default organization without authentication', async () => {
    const body = expectSuccess(await get());
    expect(body).toEqual({
      result: 'success',
      msg: '',
      authentication_methods: {
        password: true,
        dev: true,
        email: true,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        apple: false,
        google: false,
        saml: false,
        'openid connect': false,
      },
      external_authentication_methods: [],
      zulip_feature_level: SERVICE_VERSION.featureLevel,
      zulip_version: SERVICE_VERSION.version,
      zulip_merge_base: SERVICE_VERSION.mergeBase,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://localhost:3000',
      realm_uri: 'http://localhost:3000',
      realm_web_public_access_enabled: true,
      realm_name: 'Zulip Dev',
      realm_icon: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/),
      realm_description: "<p>The development environment's default organization.</p>",
    });
  });

  it('reports feature level 485, which the mobile app requires to be at least 371', async () => {
    expect(expectSuccess(await get()).zulip_feature_level).toBe(485);
  });

  it('does not check credentials that are sent', async () => {
    expect(expectSuccess(await get({ authorization: 'Basic garbage' })).realm_name).toBe('Zulip Dev');
  });

  it('describes the organization of a subdomain', async () => {
    const body = expectSuccess(await get({ headers: { host: 'lear.localhost:3000' } }));
    expect(body.realm_name).toBe('Lear & Co.');
    expect(body.realm_url).toBe('http://lear.localhost:3000');
    expect(body.realm_web_public_access_enabled).toBe(false);
  });

  it('answers 400 "Invalid subdomain" for an unknown subdomain', async () => {
    expectError(await get({ headers: { host: 'nowhere.localhost' } }), 'Invalid subdomain');
  });

  it('offers no development login unless DEVELOPMENT_MODE=on', async () => {
    delete process.env.DEVELOPMENT_MODE;
    const body = expectSuccess(await get());
    expect(body.authentication_methods.dev).toBe(false);
    expect(body.authentication_methods.password).toBe(true);
  });

  it("says is_incompatible only for upstream's ZulipInvalid test client", async () => {
    expect(expectSuccess(await get({ headers: { 'user-agent': 'ZulipInvalid/1.0' } })).is_incompatible).toBe(true);
    expect(expectSuccess(await get({ headers: { 'user-agent': 'ZulipMobile/27.0' } })).is_incompatible).toBe(false);
  });

  it('gives the official Python client what its constructor asserts on', async () => {
    // zulip.Client.__init__ calls get_server_settings() and asserts "zulip_version" in the result,
    // then reads zulip_feature_level.
    const body = expectSuccess(await get({ headers: { 'user-agent': 'ZulipPython/0.9.0' } }));
    expect(typeof body.zulip_version).toBe('string');
    expect(Number.isInteger(body.zulip_feature_level)).toBe(true);
  });
});
