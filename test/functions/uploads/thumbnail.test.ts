// GET /thumbnail: where rendered image previews (message_inline_image) load their images; a
// redirect to the image, for a logged-in user.
import { handler } from '../../../functions/uploads/thumbnail';
import { buildEvent, call, expectError } from '../../helpers/api';

/** The raw response of a GET /thumbnail (a redirect has no JSON body). */
const redirectOf = async (query: Record<string, string>, as: string | null = 'hamlet@zulip.com') => {
  const response = await handler(await buildEvent({ method: 'GET', path: '/thumbnail', as: as ?? undefined, query }));
  return { status: response.statusCode, location: response.headers?.Location };
};
const thumbnail = (params: Record<string, string>) => call(handler, { method: 'GET', path: '/thumbnail', as: 'hamlet@zulip.com', params });

describe('GET /thumbnail', () => {
  it('redirects to an uploaded file or an http(s) image', async () => {
    expect(await redirectOf({ url: '/user_uploads/2/ab/cat.png', size: 'thumbnail' })).toEqual({
      status: 302,
      location: '/user_uploads/2/ab/cat.png',
    });
    expect(await redirectOf({ url: 'https://example.com/a.png?x=1', size: 'full' })).toEqual({
      status: 302,
      location: 'https://example.com/a.png?x=1',
    });
  });

  it('refuses other URLs, and callers who are not logged in', async () => {
    expectError(await thumbnail({ url: 'javascript:alert(1)', size: 'full' }), 'Invalid URL');
    expectError(await thumbnail({ url: '//evil.example/x.png', size: 'full' }), 'Invalid URL');
    expect(await redirectOf({ url: '/user_uploads/2/ab/cat.png', size: 'full' }, null)).toEqual({ status: 401, location: undefined });
  });
});
