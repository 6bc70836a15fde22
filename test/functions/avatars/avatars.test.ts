// Avatars against the development data and the local S3 store: POST and DELETE /users/me/avatar
// (Hamlet, 10), the `realm_user` updates they send, GET /user_avatars/... serving the image, and
// GET /avatar/{email_or_id}[/medium] redirecting to wherever a user's avatar is. Polonius (13) is a
// guest; Former (18) shares nothing with him; King Lear (20) is in another organization.
import { handler as redirectHandler, mediumHandler as redirectMediumHandler } from '../../../functions/avatars/redirect';
import { handler as serveHandler } from '../../../functions/avatars/serve';
import { handler as uploadHandler } from '../../../functions/avatars/upload';
import { handler as deleteHandler } from '../../../functions/avatars/delete';
import { handler as getUserHandler } from '../../../functions/users/get';
import { handler as getMessageHandler } from '../../../functions/messages/get';
import { handler as sendMessageHandler } from '../../../functions/messages/send';
import { gravatarUrl, INACCESSIBLE_USER_AVATAR_URL, MAX_AVATAR_FILE_SIZE_BYTES } from '../../../lib/models/avatar';
import * as usersStore from '../../../lib/store/users';
import { buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';
import { multipart, type FilePart } from '../../helpers/multipart';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 200 }, (_, i) => i % 256))]);
const HAMLET = 'hamlet@zulip.com';

const upload = (as: string, files: FilePart[]) =>
  call(uploadHandler, { method: 'POST', path: '/users/me/avatar', as, rawBody: multipart(files) });
const remove = (as: string) => call(deleteHandler, { method: 'DELETE', path: '/users/me/avatar', as });

/** GET /avatar/{email_or_id}[/medium] as `as`: the raw response. */
const fetchAvatar = async (
  as: string | undefined,
  emailOrId: string,
  opts: { medium?: boolean; query?: Record<string, string>; host?: string } = {},
) => {
  const path = `/avatar/${emailOrId}${opts.medium ? '/medium' : ''}`;
  const headers: Record<string, string> = opts.host ? { host: opts.host } : {};
  const event = await buildEvent({ method: 'GET', path, as, headers, pathParameters: { email_or_id: emailOrId }, query: opts.query });
  event.rawPath = path;
  return (opts.medium ? redirectMediumHandler : redirectHandler)(event);
};

/** GET of an avatar URL at the site root (`/user_avatars/2/<hash>.png?version=N`), without credentials. */
const fetchImage = async (url: string) => {
  const [path] = url.split('?');
  const [, , realmId, filename] = path.split('/');
  const event = await buildEvent({ method: 'GET', path, pathParameters: { realm_id_str: realmId, filename } });
  event.rawPath = path;
  return serveHandler(event);
};

const hamlet = async () => (await usersStore.get(2, 10))!;

describe('POST /users/me/avatar', () => {
  it('stores the image, answers its URL and serves it there, in both sizes', async () => {
    const body = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    expect(body).toEqual({
      result: 'success',
      msg: '',
      avatar_url: expect.stringMatching(/^\/user_avatars\/2\/[0-9a-f]{40}\.png\?version=2$/),
    });
    expect(await hamlet()).toMatchObject({ avatarSource: 'U', avatarVersion: 2 });
    const image = await fetchImage(body.avatar_url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['Content-Type']).toBe('image/png');
    expect(Buffer.from(image.body, 'base64')).toEqual(PNG);
    const medium = await fetchAvatar(HAMLET, '10', { medium: true });
    const mediumImage = await fetchImage(medium.headers.Location);
    expect(medium.headers.Location).toMatch(/^\/user_avatars\/2\/[0-9a-f]{40}-medium\.png\?version=2$/);
    expect(Buffer.from(mediumImage.body, 'base64')).toEqual(PNG);
  });

  it('tells the organization with a realm_user update carrying the new avatar fields', async () => {
    const queue = await openQueue('othello@zulip.com', { eventTypes: ['realm_user'] });
    const body = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    const events = await queue.drain();
    expect(events).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: 10,
          avatar_source: 'U',
          avatar_url: body.avatar_url,
          avatar_url_medium: expect.stringMatching(/-medium\.png\?version=\d+$/),
          avatar_version: Number(/version=(\d+)$/.exec(body.avatar_url)![1]),
        },
      },
    ]);
  });

  it('makes GET /users/{id} send the uploaded URL even to a client_gravatar client', async () => {
    const { avatar_url } = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    const user = expectSuccess(
      await call(getUserHandler, { method: 'GET', path: '/users/10', as: 'othello@zulip.com', pathParameters: { user_id_or_email: '10' } }),
    ).user;
    expect(user).toMatchObject({ avatar_url, avatar_version: Number(/version=(\d+)$/.exec(avatar_url)![1]) });
  });

  it("shows the uploaded avatar on the user's messages, even to client_gravatar clients", async () => {
    const { avatar_url } = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['message'], params: { client_gravatar: true } });
    const sent = expectSuccess(
      await call(sendMessageHandler, {
        method: 'POST',
        path: '/messages',
        as: HAMLET,
        params: { type: 'stream', to: 1, topic: 'castle', content: 'new face' },
      }),
    );
    expect((await queue.drain()).map((e) => e.message.avatar_url)).toEqual([avatar_url]);
    const fetched = expectSuccess(
      await call(getMessageHandler, {
        method: 'GET',
        path: `/messages/${sent.id}`,
        as: 'iago@zulip.com',
        pathParameters: { message_id: String(sent.id) },
      }),
    );
    expect(fetched.message.avatar_url).toBe(avatar_url);
  });

  it('gives two concurrent uploads two versions, each with its own event', async () => {
    const before = (await hamlet()).avatarVersion ?? 1;
    const queue = await openQueue('othello@zulip.com', { eventTypes: ['realm_user'] });
    const bodies = await Promise.all(
      [1, 2].map((n) =>
        upload(HAMLET, [{ filename: `me${n}.png`, contentType: 'image/png', content: Buffer.concat([PNG, Buffer.from([n])]) }]),
      ),
    );
    const urls = bodies.map((b) => expectSuccess(b).avatar_url as string);
    expect(new Set(urls).size).toBe(2);
    expect((await hamlet()).avatarVersion).toBe(before + 2);
    expect((await queue.drain()).map((e) => e.person.avatar_version).sort()).toEqual([before + 1, before + 2]);
  });

  it("refuses no file and two files with upstream's message, changing nothing", async () => {
    const before = await hamlet();
    expectError(await upload(HAMLET, []), 'You must upload exactly one avatar.');
    expectError(
      await upload(HAMLET, [
        { filename: 'a.png', content: PNG },
        { field: 'other', filename: 'b.png', content: PNG },
      ]),
      'You must upload exactly one avatar.',
    );
    expect(await hamlet()).toEqual(before);
  });

  it("refuses a file that is not an image with upstream's message, changing nothing", async () => {
    const before = await hamlet();
    const result = await upload(HAMLET, [
      { filename: 'page.png', contentType: 'image/png', content: Buffer.from('<html><script>alert(1)</script>') },
    ]);
    expectError(result, 'Could not decode image; did you upload an image file?');
    expect(await hamlet()).toEqual(before);
  });

  it('stores the type the bytes show, not the one the client sent', async () => {
    const jpeg = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), PNG.subarray(8)]);
    const { avatar_url } = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'text/html', content: jpeg }]));
    expect((await fetchImage(avatar_url)).headers['Content-Type']).toBe('image/jpeg');
  });

  it("refuses a file over the limit with upstream's message, changing nothing", async () => {
    const before = await hamlet();
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_AVATAR_FILE_SIZE_BYTES + 1 - PNG.length)]);
    const result = await upload(HAMLET, [{ filename: 'big.png', content: big }]);
    expectError(result, 'Uploaded file is larger than the allowed limit of 5 MiB');
    expect(await hamlet()).toEqual(before);
  });
});

describe('DELETE /users/me/avatar', () => {
  it('goes back to the Gravatar with a new version, and tells the organization', async () => {
    expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    const version = (await hamlet()).avatarVersion!;
    const queue = await openQueue('othello@zulip.com', { eventTypes: ['realm_user'] });
    const body = expectSuccess(await remove(HAMLET));
    expect(body).toEqual({ result: 'success', msg: '', avatar_url: gravatarUrl(HAMLET, { version: version + 1 }) });
    expect(await hamlet()).toMatchObject({ avatarSource: 'G', avatarVersion: version + 1 });
    expect(await queue.drain()).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: 10,
          avatar_source: 'G',
          avatar_url: gravatarUrl(HAMLET, { version: version + 1 }),
          avatar_url_medium: gravatarUrl(HAMLET, { version: version + 1, medium: true }),
          avatar_version: version + 1,
        },
      },
    ]);
  });
});

describe('GET /avatar/{email_or_id}', () => {
  it("redirects to a Gravatar user's Gravatar, by id or email, in both sizes", async () => {
    const byId = await fetchAvatar(HAMLET, '12');
    expect(byId.statusCode).toBe(302);
    expect(byId.headers.Location).toBe(gravatarUrl('othello@zulip.com'));
    expect((await fetchAvatar(HAMLET, 'othello@zulip.com')).headers.Location).toBe(gravatarUrl('othello@zulip.com'));
    expect((await fetchAvatar(HAMLET, '12', { medium: true })).headers.Location).toBe(gravatarUrl('othello@zulip.com', { medium: true }));
  });

  it('redirects to the uploaded avatar once there is one', async () => {
    const { avatar_url } = expectSuccess(await upload(HAMLET, [{ filename: 'me.png', contentType: 'image/png', content: PNG }]));
    expect((await fetchAvatar('othello@zulip.com', '10')).headers.Location).toBe(avatar_url);
  });

  it("appends the request's query string, as upstream", async () => {
    const response = await fetchAvatar(HAMLET, '12', { query: { s: '50' } });
    expect(response.headers.Location).toBe(`${gravatarUrl('othello@zulip.com')}&s=50`);
  });

  it("redirects an unknown email, or another organization's user, to that text's Gravatar", async () => {
    expect((await fetchAvatar(HAMLET, 'nobody@example.com')).headers.Location).toBe(gravatarUrl('nobody@example.com'));
    expect((await fetchAvatar(HAMLET, '20')).headers.Location).toBe(gravatarUrl('20'));
  });

  it('lets spectators of an organization open to them ask by id only', async () => {
    expect((await fetchAvatar(undefined, '12')).headers.Location).toBe(gravatarUrl('othello@zulip.com'));
    const byEmail = await fetchAvatar(undefined, 'othello@zulip.com');
    expect({ status: byEmail.statusCode, body: JSON.parse(byEmail.body) }).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' },
    });
  });

  it('requires authentication in an organization closed to spectators', async () => {
    const response = await fetchAvatar(undefined, '19', { host: 'lear.localhost:3000' });
    expect(response.statusCode).toBe(401);
  });

  describe('when guests may see only some users', () => {
    limitGuestsToAccessibleUsers();

    it('redirects a guest to the unknown-user image for a user it may not see', async () => {
      expect((await fetchAvatar('polonius@zulip.com', '18')).headers.Location).toBe(INACCESSIBLE_USER_AVATAR_URL);
      expect((await fetchAvatar('polonius@zulip.com', '12')).headers.Location).toBe(gravatarUrl('othello@zulip.com'));
    });
  });
});

describe('GET /user_avatars/{realm_id}/{file}', () => {
  it('answers 404 for a missing avatar, and serves nothing but avatars', async () => {
    const missing = await fetchImage(`/user_avatars/2/${'0'.repeat(40)}.png`);
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ result: 'error', msg: 'File not found.' });
    expect((await fetchImage('/user_avatars/2/notes.txt')).statusCode).toBe(404);
  });
});
