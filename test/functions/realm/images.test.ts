// The organization's icon and logos against the development data and the local S3 store: POST and
// DELETE /realm/icon and /realm/logo (Iago, 11, administers organization 2; Hamlet, 10, is a
// member), the `realm` update_dict events they send, register's realm_icon_* / realm_logo_* /
// realm_night_logo_*, and GET /user_avatars/... serving the uploaded image.
import { handler as register } from '../../../functions/events/register';
import { handler as serveHandler } from '../../../functions/avatars/serve';
import { handler as uploadIcon } from '../../../functions/realm/upload-icon';
import { handler as deleteIcon } from '../../../functions/realm/delete-icon';
import { handler as uploadLogo } from '../../../functions/realm/upload-logo';
import { handler as deleteLogo } from '../../../functions/realm/delete-logo';
import { handler as serverSettings } from '../../../functions/auth/server-settings';
import { MAX_ICON_FILE_SIZE_MIB } from '../../../lib/models/realm-images';
import * as realmsStore from '../../../lib/store/realms';
import { buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { multipart, type FilePart } from '../../helpers/multipart';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 100 }, (_, i) => i))]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.from('jpeg body')]);
const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const GRAVATAR_ICON = /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/;
const DEFAULT_LOGO = '/static/images/logo/zulip-org-logo.svg?version=0';
const UPLOADED = /^\/user_avatars\/2\/[0-9a-f]{40}\.png\?version=(\d+)$/;

const png = (name = 'icon.png'): FilePart => ({ filename: name, contentType: 'image/png', content: PNG });

const postIcon = (as: string, files: FilePart[]) =>
  call(uploadIcon, { method: 'POST', path: '/realm/icon', as, rawBody: multipart(files) });
const removeIcon = (as: string) => call(deleteIcon, { method: 'DELETE', path: '/realm/icon', as });
const postLogo = (as: string, files: FilePart[], fields: Record<string, string> = { night: 'false' }) =>
  call(uploadLogo, { method: 'POST', path: '/realm/logo', as, rawBody: multipart(files, fields) });
const removeLogo = (as: string, night: boolean) => call(deleteLogo, { method: 'DELETE', path: '/realm/logo', as, params: { night } });

/** What register shows `as` of the organization's images. */
const registered = async (as = HAMLET) => {
  const state = expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['realm'] } }));
  return Object.fromEntries(Object.entries(state).filter(([name]) => /^realm_(night_)?(icon|logo)_(url|source)$/.test(name)));
};

const stored = async () => (await realmsStore.get(2, { consistent: true }))!;

/** GET of an uploaded image's URL at the site root, without credentials. */
const fetchImage = async (url: string) => {
  const [path] = url.split('?');
  const [, , realmId, filename] = path.split('/');
  const event = await buildEvent({ method: 'GET', path, pathParameters: { realm_id_str: realmId, filename } });
  event.rawPath = path;
  return serveHandler(event);
};

/** The code upstream's errors carry: require_realm_admin's own, else BAD_REQUEST. */
const codeOf = (msg: string): string => (msg === 'Must be an organization administrator' ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST');

const versionOf = (url: string): number => Number(UPLOADED.exec(url)![1]);

describe('POST /realm/icon', () => {
  it('stores the image, answers its URL, serves it there, and register and server_settings follow', async () => {
    const body = expectSuccess(await postIcon(IAGO, [png()]));
    expect(body).toEqual({ result: 'success', msg: '', icon_url: expect.stringMatching(UPLOADED) });
    expect((await stored()).icon).toMatchObject({ source: 'U', version: versionOf(body.icon_url) });
    const image = await fetchImage(body.icon_url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['Content-Type']).toBe('image/png');
    expect(Buffer.from(image.body, 'base64')).toEqual(PNG);
    expect(await registered()).toMatchObject({ realm_icon_url: body.icon_url, realm_icon_source: 'U' });
    const settings = expectSuccess(await call(serverSettings, { method: 'GET', path: '/server_settings' }));
    expect(settings.realm_icon).toBe(body.icon_url);
  });

  it("tells another user's queue with a realm update_dict `icon`, and each upload takes the next version", async () => {
    const queue = await openQueue(HAMLET, { eventTypes: ['realm'] });
    const first = expectSuccess(await postIcon(IAGO, [png()])).icon_url as string;
    const second = expectSuccess(await postIcon(IAGO, [{ filename: 'photo.jpg', contentType: 'image/jpeg', content: JPEG }]))
      .icon_url as string;
    expect(versionOf(second)).toBe(versionOf(first) + 1);
    expect(second.split('?')[0]).not.toBe(first.split('?')[0]);
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: first, icon_source: 'U' } },
      { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: second, icon_source: 'U' } },
    ]);
    expect((await fetchImage(second)).headers['Content-Type']).toBe('image/jpeg');
  });

  it('gives two concurrent uploads two versions', async () => {
    const before = (await stored()).icon?.version ?? 1;
    const urls = (await Promise.all([postIcon(IAGO, [png('a.png')]), postIcon(IAGO, [png('b.png')])])).map(
      (r) => expectSuccess(r).icon_url as string,
    );
    expect(urls.map(versionOf).sort()).toEqual([before + 1, before + 2]);
    expect((await stored()).icon?.version).toBe(before + 2);
  });

  it.each<[string, () => Promise<Awaited<ReturnType<typeof postIcon>>>, string]>([
    ['a member', () => postIcon(HAMLET, [png()]), 'Must be an organization administrator'],
    ['no file', () => postIcon(IAGO, []), 'You must upload exactly one icon.'],
    ['two files', () => postIcon(IAGO, [png('a.png'), { ...png('b.png'), field: 'other' }]), 'You must upload exactly one icon.'],
    [
      'a file over the limit',
      () => postIcon(IAGO, [{ ...png(), content: Buffer.concat([PNG, Buffer.alloc(MAX_ICON_FILE_SIZE_MIB * 1024 * 1024)]) }]),
      `Uploaded file is larger than the allowed limit of ${MAX_ICON_FILE_SIZE_MIB} MiB`,
    ],
    [
      'a text file',
      () => postIcon(IAGO, [{ filename: 'text.txt', contentType: 'text/plain', content: Buffer.from('hi') }]),
      'Invalid image format',
    ],
    [
      'a BMP',
      () => postIcon(IAGO, [{ filename: 'img.bmp', contentType: 'image/bmp', content: Buffer.from('BM....') }]),
      'Invalid image format',
    ],
    [
      'a PNG that is not one',
      () => postIcon(IAGO, [{ filename: 'corrupt.png', contentType: 'image/png', content: Buffer.from('not an image') }]),
      'Could not decode image; did you upload an image file?',
    ],
  ])("refuses %s with upstream's message, changing nothing and telling nobody", async (_case, send, msg) => {
    const before = await stored();
    const queue = await openQueue(HAMLET, { eventTypes: ['realm'] });
    expectError(await send(), msg, 400, codeOf(msg));
    expect((await stored()).icon).toEqual(before.icon);
    expect(await queue.drain()).toEqual([]);
  });
});

describe('DELETE /realm/icon', () => {
  it('goes back to the Gravatar icon with a new version, tells everyone, and register follows', async () => {
    const uploaded = expectSuccess(await postIcon(IAGO, [png()])).icon_url as string;
    const queue = await openQueue(HAMLET, { eventTypes: ['realm'] });
    const body = expectSuccess(await removeIcon(IAGO));
    expect(body).toEqual({ result: 'success', msg: '', icon_url: expect.stringMatching(GRAVATAR_ICON) });
    expect((await stored()).icon).toMatchObject({ source: 'G', version: versionOf(uploaded) + 1 });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: body.icon_url, icon_source: 'G' } },
    ]);
    expect(await registered()).toMatchObject({ realm_icon_url: body.icon_url, realm_icon_source: 'G' });
    // The image stays where a cached URL names it, as upstream keeps it.
    expect((await fetchImage(uploaded)).statusCode).toBe(200);
  });

  it('refuses a member, changing nothing', async () => {
    const before = await stored();
    expectError(await removeIcon(HAMLET), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored()).icon).toEqual(before.icon);
  });
});

describe.each([
  ['logo', false],
  ['night_logo', true],
])('POST and DELETE /realm/logo for the %s', (kind, night) => {
  const attribute = night ? 'nightLogo' : 'logo';
  const other = night ? 'logo' : 'nightLogo';

  it('uploads it: the event, register and the served image follow, and the other logo stays', async () => {
    const before = await stored();
    const queue = await openQueue(HAMLET, { eventTypes: ['realm'] });
    expect(expectSuccess(await postLogo(IAGO, [png('logo.png')], { night: String(night) }))).toEqual({ result: 'success', msg: '' });
    const after = await stored();
    expect(after[attribute]).toMatchObject({ source: 'U', version: (before[attribute]?.version ?? 1) + 1 });
    expect(after[other]).toEqual(before[other]);
    const [event] = await queue.drain();
    expect(event).toEqual({
      type: 'realm',
      op: 'update_dict',
      property: kind,
      data: { [`${kind}_url`]: expect.stringMatching(UPLOADED), [`${kind}_source`]: 'U' },
    });
    const url = event.data[`${kind}_url`] as string;
    expect(versionOf(url)).toBe(after[attribute]!.version);
    expect(await registered()).toMatchObject({ [`realm_${kind}_url`]: url, [`realm_${kind}_source`]: 'U' });
    expect(Buffer.from((await fetchImage(url)).body, 'base64')).toEqual(PNG);
  });

  it('deletes it back to the default logo, with an event and register following', async () => {
    expectSuccess(await postLogo(IAGO, [png('logo.png')], { night: String(night) }));
    const version = (await stored())[attribute]!.version;
    const queue = await openQueue(HAMLET, { eventTypes: ['realm'] });
    expect(expectSuccess(await removeLogo(IAGO, night))).toEqual({ result: 'success', msg: '' });
    expect((await stored())[attribute]).toEqual({ source: 'D', version: version + 1 });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: kind, data: { [`${kind}_url`]: DEFAULT_LOGO, [`${kind}_source`]: 'D' } },
    ]);
    expect(await registered()).toMatchObject({ [`realm_${kind}_url`]: DEFAULT_LOGO, [`realm_${kind}_source`]: 'D' });
  });

  it.each<[string, () => ReturnType<typeof postLogo>, string]>([
    ['a member', () => postLogo(HAMLET, [png()], { night: String(night) }), 'Must be an organization administrator'],
    ['no file', () => postLogo(IAGO, [], { night: String(night) }), 'You must upload exactly one logo.'],
    [
      'two files',
      () => postLogo(IAGO, [png('a.png'), { ...png('b.png'), field: 'f2' }], { night: String(night) }),
      'You must upload exactly one logo.',
    ],
    [
      'a file that is not an image',
      () => postLogo(IAGO, [{ filename: 'corrupt.gif', contentType: 'image/gif', content: Buffer.from('GIF') }], { night: String(night) }),
      'Could not decode image; did you upload an image file?',
    ],
  ])('refuses %s, changing nothing', async (_case, send, msg) => {
    const before = await stored();
    expectError(await send(), msg, 400, codeOf(msg));
    expect((await stored())[attribute]).toEqual(before[attribute]);
  });
});

describe('the night parameter of /realm/logo', () => {
  it("is required, as upstream's", async () => {
    const before = await stored();
    expectError(await postLogo(IAGO, [png()], {}), "Missing 'night' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expectError(
      await call(deleteLogo, { method: 'DELETE', path: '/realm/logo', as: IAGO }),
      "Missing 'night' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(await postLogo(IAGO, [png()], { night: 'maybe' }), 'night is not valid JSON');
    expect(await stored()).toEqual(before);
  });

  it('is checked after the administrator requirement, as upstream decorates the view', async () => {
    expectError(await postLogo(HAMLET, [png()], {}), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  });
});

describe('register before any change', () => {
  it("shows upstream's defaults for an organization that never changed its images", async () => {
    const fresh = await realmsStore.get(3, { consistent: true });
    expect(fresh?.icon).toBeUndefined();
    const lear = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'king@lear.org', params: { fetch_event_types: ['realm'] } }),
    );
    expect(lear).toMatchObject({
      realm_icon_url: expect.stringMatching(GRAVATAR_ICON),
      realm_icon_source: 'G',
      realm_logo_url: DEFAULT_LOGO,
      realm_logo_source: 'D',
      realm_night_logo_url: DEFAULT_LOGO,
      realm_night_logo_source: 'D',
    });
  });
});
