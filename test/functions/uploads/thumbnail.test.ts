// GET /thumbnail: where rendered image previews (message_inline_image) load their images; a
// redirect to the image, for a logged-in user. GET /api/v1/thumbnail/status/...: whether an
// upload has thumbnails yet (never, here), for who may read the file.
import { handler } from '../../../functions/uploads/thumbnail';
import { handler as statusHandler } from '../../../functions/uploads/thumbnail-status';
import { handler as uploadHandler } from '../../../functions/uploads/upload';
import { atPath, buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { multipart } from '../../helpers/multipart';

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

describe('GET /thumbnail/status/{realm_id_str}/{filename}', () => {
  const uploadImage = async (): Promise<string> =>
    expectSuccess(
      await call(uploadHandler, {
        method: 'POST',
        path: '/user_uploads',
        as: 'hamlet@zulip.com',
        rawBody: multipart([{ filename: 'cat.png', contentType: 'image/png', content: Buffer.from('not really a png') }]),
      }),
    ).url as string;
  /** `/user_uploads/2/ab/xyz/cat.png` → its status, as the given user. */
  const status = (as: string, url: string) => {
    const [, , realmId, ...rest] = url.split('/');
    return call(statusHandler, {
      ...atPath('GET', '/thumbnail/status/{realm_id_str}/{filename}', { realm_id_str: realmId!, filename: rest.join('/') }),
      as,
    });
  };

  it("answers has_thumbnail false for its uploader's image: no thumbnails are made here", async () => {
    expect(expectSuccess(await status('hamlet@zulip.com', await uploadImage()))).toEqual({
      result: 'success',
      msg: '',
      has_thumbnail: false,
    });
  });

  it('answers the refusals of the file itself: another member before a message links it, another organization, no such file', async () => {
    const url = await uploadImage();
    expectError(await status('othello@zulip.com', url), 'You are not authorized to view this file.', 403);
    expectError(await status('edgar@lear.org', url), 'File not found.', 404);
    expectError(await status('hamlet@zulip.com', url.replace('cat.png', 'dog.png')), 'File not found.', 404);
  });
});
