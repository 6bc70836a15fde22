// Avatars over HTTP through serverless-offline and the local S3 store, as the mobile app uses
// them: an upload (multipart, as fetch sends it), the redirect of /avatar/{id} (with the
// client's credentials) and the image at the redirect's target (without them), then the removal.
import { basicAuth } from '../helpers/api';
import { useLocalService } from '../helpers/e2e';

const service = useLocalService();

const PNG = new Uint8Array([...Buffer.from('89504e470d0a1a0a', 'hex'), ...Array.from({ length: 512 }, (_, i) => (i * 5) % 256)]);

describe('e2e: uploading an avatar and loading it through /avatar/{id}', () => {
  it('redirects /avatar/{id} and /avatar/{id}/medium to the uploaded image, then back to the Gravatar once removed', async () => {
    const key = (await service.request('POST', '/dev_fetch_api_key', { params: { username: 'hamlet@zulip.com' } })).body.api_key as string;
    const authorization = basicAuth('hamlet@zulip.com', key);
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
    const uploaded = await fetch(`${service.baseUrl}/users/me/avatar`, { method: 'POST', headers: { authorization }, body: form });
    const body = (await uploaded.json()) as { avatar_url: string };
    expect({ status: uploaded.status, body }).toEqual({
      status: 200,
      body: { result: 'success', msg: '', avatar_url: expect.stringMatching(/^\/user_avatars\/2\/[0-9a-f]{40}\.png\?version=\d+$/) },
    });

    for (const suffix of ['', '/medium']) {
      const redirect = await fetch(`${service.origin}/avatar/10${suffix}`, { headers: { authorization }, redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get('location')!;
      if (suffix === '') expect(location).toBe(body.avatar_url);
      const image = await fetch(`${service.origin}${location}`);
      expect({ status: image.status, type: image.headers.get('content-type') }).toEqual({ status: 200, type: 'image/png' });
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    }

    const removed = await fetch(`${service.baseUrl}/users/me/avatar`, { method: 'DELETE', headers: { authorization } });
    const gravatar = ((await removed.json()) as { avatar_url: string }).avatar_url;
    expect(gravatar).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=\d+$/);
    const redirect = await fetch(`${service.origin}/avatar/10`, { headers: { authorization }, redirect: 'manual' });
    expect({ status: redirect.status, location: redirect.headers.get('location') }).toEqual({ status: 302, location: gravatar });
  });
});
