// POST /dev_fetch_api_key over HTTP through serverless-offline, with the zulip-js client (which
// sends multipart bodies), as a developer's first call against `npm start` would be.
import { expectError, expectSuccess } from '../helpers/api';
import { loadZulipJs, useLocalService } from '../helpers/e2e';

const service = useLocalService();

describe('e2e: POST /dev_fetch_api_key', () => {
  it('returns an API key to zulip-js that then authenticates a request', async () => {
    const zulipInit = loadZulipJs();
    // zulip-js always sends Basic credentials; dev_fetch_api_key ignores them.
    const anonymous = await zulipInit({ realm: service.origin, username: 'iago@zulip.com', apiKey: 'placeholder' });
    const fetched = await anonymous.callEndpoint('/dev_fetch_api_key', 'POST', { username: 'iago@zulip.com' });
    expect(fetched).toEqual({
      result: 'success',
      msg: '',
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: 'iago@zulip.com',
      user_id: 11,
    });

    const iago = await zulipInit({ realm: service.origin, username: fetched.email, apiKey: fetched.api_key });
    const registered = await iago.queues.register({ event_types: ['presence'] });
    expect(registered).toMatchObject({ result: 'success', msg: '', queue_id: expect.any(String) });
  });

  it('refuses the wrong key with 401 and the Basic challenge', async () => {
    const result = await service.request('POST', '/register', { auth: { email: 'iago@zulip.com', apiKey: 'A'.repeat(32) } });
    expectError(result, 'Invalid API key', 401, 'UNAUTHORIZED');
    expect(result.headers['www-authenticate']).toBe('Basic realm="zulip"');
  });

  it('gives the same answer for a form body, a multipart body and the query string', async () => {
    for (const encoding of ['form', 'multipart', 'query'] as const) {
      const body = expectSuccess(
        await service.request('POST', '/dev_fetch_api_key', { params: { username: 'hamlet@zulip.com' }, encoding }),
      );
      expect(body.user_id).toBe(10);
    }
  });

  it('answers 405 with the allowed methods for a GET', async () => {
    const result = await service.request('GET', '/dev_fetch_api_key');
    expect(result.status).toBe(405);
    expect(result.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
  });

  it('answers a JSON 404 for an unknown path under /api/v1', async () => {
    const result = await service.request('GET', '/no_such_endpoint');
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expectError(result, 'Not Found', 404, 'BAD_REQUEST');
  });
});
