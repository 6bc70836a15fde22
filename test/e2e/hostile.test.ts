// The local service under a burst and under requests its HTTP layer refuses (issue 13 items 5
// and 6): every answer is the API's envelope, and a burst of first calls to a route answers in the
// usual time instead of timing out while workers compile the handlers.
import { useLocalService } from '../helpers/e2e';

const service = useLocalService();

const apiKeyOf = async (email: string): Promise<string> =>
  (await service.request('POST', '/dev_fetch_api_key', { params: { username: email } })).body.api_key as string;

const isEnvelope = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && ['success', 'error'].includes((body as { result?: string }).result ?? '');

describe('e2e: hostile requests against the local service', () => {
  it('answers a burst of 30 concurrent first calls to a route with 30 success envelopes within 10 seconds', async () => {
    const auth = { email: 'iago@zulip.com', apiKey: await apiKeyOf('iago@zulip.com') };
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 30 }, () => service.request('GET', '/realm/presence', { auth })));
    const elapsed = Date.now() - started;
    expect(results.map((r) => [r.status, r.body?.result])).toEqual(Array.from({ length: 30 }, () => [200, 'success']));
    expect(elapsed).toBeLessThan(10_000);
  }, 60_000);

  it('answers multipart/form-data without a boundary with the error envelope', async () => {
    const apiKey = await apiKeyOf('hamlet@zulip.com');
    const response = await fetch(`${service.baseUrl}/drafts`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`hamlet@zulip.com:${apiKey}`).toString('base64')}`,
        'content-type': 'multipart/form-data',
      },
      body: 'drafts=[]',
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({ result: 'error', msg: expect.any(String), code: 'BAD_REQUEST' });
  });

  it('answers a path segment that is not valid UTF-8 with an error envelope', async () => {
    const apiKey = await apiKeyOf('hamlet@zulip.com');
    const response = await fetch(`${service.baseUrl}/users/%ED%A0%80/presence`, {
      headers: { authorization: `Basic ${Buffer.from(`hamlet@zulip.com:${apiKey}`).toString('base64')}` },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(isEnvelope(await response.json())).toBe(true);
  });

  it('answers a request line over 16 KB with a 431 error envelope', async () => {
    const response = await fetch(`${service.baseUrl}/drafts?x=${'a'.repeat(20 * 1024)}`);
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ result: 'error', msg: 'Request Header Fields Too Large', code: 'BAD_REQUEST' });
  });
});
