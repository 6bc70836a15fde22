// Password login over HTTP through serverless-offline, as the real clients do it: GET
// /server_settings first (the mobile app and the Python client), then zulip-js signs in with
// a password (its accounts.retrieve, which it calls when it has no API key) and registers a queue.
import { devPassword } from '../../lib/passwords';
import { expectError, expectSuccess } from '../helpers/api';
import { loadZulipJs, useLocalService } from '../helpers/e2e';

const service = useLocalService();

describe('e2e: password login', () => {
  it('GET /server_settings needs no credentials and offers password login', async () => {
    const body = expectSuccess(await service.request('GET', '/server_settings'));
    expect(body.authentication_methods.password).toBe(true);
    expect(body.email_auth_enabled).toBe(true);
    expect(body.zulip_feature_level).toBe(485);
  });

  it('zulip-js signs in with a password and then registers a queue', async () => {
    const zulipInit = loadZulipJs() as (config: Record<string, string>) => Promise<any>;
    const client = await zulipInit({ realm: service.origin, username: 'iago@zulip.com', password: devPassword('iago@zulip.com') });
    expect(client.config.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    const registered = await client.queues.register({ event_types: ['presence'] });
    expect(registered).toMatchObject({ result: 'success', msg: '', queue_id: expect.any(String) });
  });

  it('answers a wrong password with 401 over HTTP', async () => {
    const result = await service.request('POST', '/fetch_api_key', {
      params: { username: 'hamlet@zulip.com', password: 'wrong' },
      encoding: 'multipart',
    });
    expectError(result, 'Your username or password is incorrect', 401, 'AUTHENTICATION_FAILED');
  });

  it('serves the emoji data file without credentials', async () => {
    const body = (await service.request('GET', '/server_emoji_data.json')).body;
    expect(body.code_to_names['1f44d']).toEqual(['+1', 'thumbs_up', 'like']);
  });
});
