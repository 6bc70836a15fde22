// Custom emoji, after upstream's test_realm_emoji.py, against the development data and the local S3
// store: POST /realm/emoji/{name}, GET /realm/emoji, DELETE /realm/emoji/{name}, the images at
// /user_avatars/<realm>/emoji/images/..., the `realm_emoji` events on another user's queue, register's
// `realm_emoji`, messages rendering them and reactions with them. Hamlet (10), Othello (12) and
// Cordelia (8) are members, Iago (11) an administrator, Polonius (13) a guest, default-bot (16) a bot;
// King Lear (20) is in another organization. Every test uploads emoji of its own names.
import { handler as register } from '../../../functions/events/register';
import { handler as deleteHandler } from '../../../functions/emoji/delete';
import { handler as listHandler } from '../../../functions/emoji/list';
import { handler as serveHandler } from '../../../functions/emoji/serve-image';
import { handler as uploadHandler } from '../../../functions/emoji/upload';
import { handler as sendMessage } from '../../../functions/messages/send';
import { handler as addReaction } from '../../../functions/reactions/add';
import { handler as removeReaction } from '../../../functions/reactions/remove';
import { handler as updateStatus } from '../../../functions/user-status/update';
import { MAX_EMOJI_FILE_SIZE_BYTES } from '../../../lib/models/realm-emoji';
import * as messagesStore from '../../../lib/store/messages';
import * as realmEmojiStore from '../../../lib/store/realm-emoji';
import { buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { multipart, type FilePart } from '../../helpers/multipart';
import { withRealm } from '../../helpers/realm';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 100 }, (_, i) => i % 256))]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from(Array.from({ length: 50 }, (_, i) => i))]);
const TIFF = Buffer.from('49492a00080000000000', 'hex');
const png = (filename = 'img.png'): FilePart => ({ filename, contentType: 'image/png', content: PNG });

const [HAMLET, IAGO, OTHELLO, CORDELIA, POLONIUS, BOT, KING] = [
  'hamlet@zulip.com',
  'iago@zulip.com',
  'othello@zulip.com',
  'cordelia@zulip.com',
  'polonius@zulip.com',
  'default-bot@zulip.com',
  'king@lear.org',
];

const upload = (as: string, name: string, files: FilePart[] = [png()]) =>
  call(uploadHandler, {
    method: 'POST',
    path: `/realm/emoji/${name}`,
    pathParameters: { emoji_name: name },
    as,
    rawBody: multipart(files),
  });
const deactivate = (as: string, name: string) =>
  call(deleteHandler, { method: 'DELETE', path: `/realm/emoji/${name}`, pathParameters: { emoji_name: name }, as });
const list = async (as = HAMLET) => expectSuccess(await call(listHandler, { method: 'GET', path: '/realm/emoji', as })).emoji;
const stored = () => realmEmojiStore.listRealmEmoji(2, { consistent: true });

/** GET of an emoji's source_url at the site root, without credentials. */
const fetchImage = async (url: string) => {
  const [, , realmId, , , filename] = url.split('/');
  const event = await buildEvent({ method: 'GET', path: url, pathParameters: { realm_id_str: realmId, filename } });
  event.rawPath = url;
  return serveHandler(event);
};

/** The emoji of a name in GET /realm/emoji (the newest, if several were uploaded under it). */
const emojiNamed = async (name: string): Promise<Record<string, any>> =>
  (Object.values(await list()) as Record<string, any>[])
    .filter((e: any) => e.name === name)
    .sort((a: any, b: any) => Number(b.id) - Number(a.id))[0];

/** Expects `act` to fail with `msg` and to change no emoji and send no event. */
const expectRefused = async (act: () => Promise<any>, msg: string, status = 400) => {
  const before = await stored();
  const queue = await openQueue(OTHELLO, { eventTypes: ['realm_emoji'] });
  expectError(await act(), msg, status);
  expect(await stored()).toEqual(before);
  expect(await queue.drain()).toEqual([]);
};

describe('POST /realm/emoji/{emoji_name}', () => {
  it('stores the emoji with its author, lists it and serves its image at source_url', async () => {
    expectSuccess(await upload(IAGO, 'my_emoji'));
    const emoji = await emojiNamed('my_emoji');
    expect(emoji).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'my_emoji',
      source_url: expect.stringMatching(/^\/user_avatars\/2\/emoji\/images\/[0-9a-f]{16}\.png$/),
      still_url: null,
      deactivated: false,
      author_id: 11,
    });
    const image = await fetchImage(emoji.source_url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['Content-Type']).toBe('image/png');
    expect(Buffer.from(image.body, 'base64')).toEqual(PNG);
  });

  it('takes a GIF from a member and stores it with its own type', async () => {
    expectSuccess(await upload(HAMLET, 'dance_loop', [{ filename: 'dance.gif', contentType: 'image/gif', content: GIF }]));
    const emoji = await emojiNamed('dance_loop');
    expect(emoji).toMatchObject({ author_id: 10, source_url: expect.stringMatching(/\.gif$/) });
    expect((await fetchImage(emoji.source_url)).headers['Content-Type']).toBe('image/gif');
  });

  it('strips the name and makes its spaces underscores, as upstream', async () => {
    expectSuccess(await upload(HAMLET, ' party time '));
    expect(await emojiNamed('party_time')).toBeDefined();
  });

  it('sends the organization every emoji in a realm_emoji update, and capable clients an add', async () => {
    const legacy = await openQueue(OTHELLO, { eventTypes: ['realm_emoji'] });
    const capable = await openQueue(CORDELIA, { eventTypes: ['realm_emoji'], capabilities: { individual_emoji_changes: true } });
    expectSuccess(await upload(HAMLET, 'evented'));
    const all = await list();
    const added = await emojiNamed('evented');
    expect(await legacy.drain()).toEqual([{ type: 'realm_emoji', op: 'update', realm_emoji: all }]);
    expect(await capable.drain()).toEqual([{ type: 'realm_emoji', op: 'add', emoji: added }]);
  });

  it('lets an administrator override a built-in emoji name', async () => {
    expectSuccess(await upload(IAGO, 'smile'));
    expect(await emojiNamed('smile')).toMatchObject({ author_id: 11, deactivated: false });
  });

  it('takes the name of a deactivated emoji again (a re-upload)', async () => {
    expectSuccess(await upload(HAMLET, 'reuploaded'));
    expectSuccess(await deactivate(HAMLET, 'reuploaded'));
    expectSuccess(await upload(HAMLET, 'reuploaded'));
    expect(Object.values(await list()).filter((e: any) => e.name === 'reuploaded')).toHaveLength(2);
  });

  it('gives two concurrent uploads of one name one emoji, the other "already exists"', async () => {
    const results = await Promise.all([upload(HAMLET, 'raced'), upload(OTHELLO, 'raced')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.msg).toBe('A custom emoji with this name already exists.');
    expect((await stored()).filter((e) => e.name === 'raced')).toHaveLength(1);
  });

  const ONLY_ALLOWED = 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
  it.each([
    ['a star', 'my_em*oji', ONLY_ALLOWED],
    ['slashes', 'my/emoji/with/forward/slash/', ONLY_ALLOWED],
    ['capitals', 'my_EMoji', ONLY_ALLOWED],
    ['a trailing underscore', 'my_emoji_', 'Emoji names must end with either a letter or digit.'],
    ['only a space', ' ', 'Emoji name is missing'],
    ['5,000 characters and a bang', 'x'.repeat(5000) + '!', ONLY_ALLOWED],
  ])('refuses a name with %s with its message, changing nothing', async (_label, name, msg) => {
    await expectRefused(() => upload(IAGO, name), msg);
  });

  it('refuses a guest before anything else, changing nothing', async () => {
    await expectRefused(() => upload(POLONIUS, 'bad*name'), 'Not allowed for guest users');
  });

  it('refuses a bot, changing nothing', async () => {
    await expectRefused(() => upload(BOT, 'botmoji'), 'This endpoint does not accept bot requests.');
  });

  it('refuses a member outside can_add_custom_emoji_group, and lets one in it upload', async () => {
    // 2: role:administrators; 9: hamletcharacters (Cordelia 8, Hamlet 10).
    await withRealm({ groupSettings: { can_add_custom_emoji_group: 2 } }, async () => {
      await expectRefused(() => upload(HAMLET, 'admins_only'), 'Insufficient permission');
      expectSuccess(await upload(IAGO, 'admins_only'));
    });
    await withRealm({ groupSettings: { can_add_custom_emoji_group: 9 } }, async () => {
      expectSuccess(await upload(HAMLET, 'characters_only'));
      await expectRefused(() => upload(OTHELLO, 'characters_only_2'), 'Insufficient permission');
    });
    await withRealm({ groupSettings: { can_add_custom_emoji_group: { direct_members: [12], direct_subgroups: [2] } } }, async () => {
      expectSuccess(await upload(OTHELLO, 'anonymous_1'));
      expectSuccess(await upload(IAGO, 'anonymous_2'));
      await expectRefused(() => upload(HAMLET, 'anonymous_3'), 'Insufficient permission');
    });
  });

  it('refuses a name an active emoji has, changing nothing', async () => {
    expectSuccess(await upload(HAMLET, 'taken'));
    await expectRefused(() => upload(IAGO, 'taken'), 'A custom emoji with this name already exists.');
  });

  it('refuses no file and two files, changing nothing', async () => {
    await expectRefused(() => upload(HAMLET, 'no_file', []), 'You must upload exactly one file.');
    await expectRefused(
      () => upload(HAMLET, 'two_files', [png('a.png'), { ...png('b.png'), field: 'f2' }]),
      'You must upload exactly one file.',
    );
  });

  it('refuses a built-in name from a member, changing nothing', async () => {
    await expectRefused(() => upload(HAMLET, 'laughing'), 'Only administrators can override default emoji.');
  });

  it('refuses a file over 5 MiB, changing nothing', async () => {
    const big = { filename: 'big.png', contentType: 'image/png', content: Buffer.concat([PNG, Buffer.alloc(MAX_EMOJI_FILE_SIZE_BYTES)]) };
    await expectRefused(() => upload(HAMLET, 'too_big', [big]), 'Uploaded file is larger than the allowed limit of 5 MiB');
  });

  it('refuses a TIFF and a file that is no image, changing nothing', async () => {
    await expectRefused(
      () => upload(HAMLET, 'tiff', [{ filename: 'img.tif', contentType: 'image/tiff', content: TIFF }]),
      'Invalid image format',
    );
    await expectRefused(
      () => upload(HAMLET, 'not_image', [{ filename: 'img.png', contentType: 'image/png', content: Buffer.from('hello') }]),
      'Could not decode image; did you upload an image file?',
    );
  });

  it("takes the image's type from its name when the part does not say it", async () => {
    expectSuccess(await upload(HAMLET, 'untyped', [{ filename: 'img.png', content: PNG }]));
    expect(await emojiNamed('untyped')).toBeDefined();
  });
});

describe('GET /realm/emoji', () => {
  it("lists deactivated emoji too, and nothing of another organization's", async () => {
    expectSuccess(await upload(HAMLET, 'listed'));
    expectSuccess(await deactivate(HAMLET, 'listed'));
    expect(await emojiNamed('listed')).toMatchObject({ deactivated: true });
    expect(await list(KING)).toEqual({});
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('deactivates the emoji (kept in the list) and tells the organization', async () => {
    expectSuccess(await upload(OTHELLO, 'to_remove'));
    const { id } = await emojiNamed('to_remove');
    const legacy = await openQueue(HAMLET, { eventTypes: ['realm_emoji'] });
    const capable = await openQueue(CORDELIA, { eventTypes: ['realm_emoji'], capabilities: { individual_emoji_changes: true } });
    expectSuccess(await deactivate(OTHELLO, 'to_remove'));
    const all = await list();
    expect(all[id]).toMatchObject({ name: 'to_remove', deactivated: true });
    expect(await legacy.drain()).toEqual([{ type: 'realm_emoji', op: 'update', realm_emoji: all }]);
    expect(await capable.drain()).toEqual([{ type: 'realm_emoji', op: 'update_one', emoji_id: id, data: { deactivated: true } }]);
  });

  it('gives two concurrent deactivations one success and one 404, and sends one event', async () => {
    expectSuccess(await upload(HAMLET, 'raced_removal'));
    const queue = await openQueue(OTHELLO, { eventTypes: ['realm_emoji'] });
    const results = await Promise.all([deactivate(HAMLET, 'raced_removal'), deactivate(IAGO, 'raced_removal')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(results.find((r) => r.status === 404)!.body.msg).toBe("Emoji 'raced_removal' does not exist");
    expect(await queue.drain()).toHaveLength(1);
  });

  it("lets an administrator deactivate another user's emoji", async () => {
    expectSuccess(await upload(OTHELLO, 'admin_removes'));
    expectSuccess(await deactivate(IAGO, 'admin_removes'));
  });

  it("refuses another member's emoji, changing nothing", async () => {
    expectSuccess(await upload(OTHELLO, 'othellos'));
    await expectRefused(() => deactivate(CORDELIA, 'othellos'), 'Must be an organization administrator or emoji author');
  });

  it("answers 404 for an unknown, a deactivated and another organization's emoji, changing nothing", async () => {
    await expectRefused(() => deactivate(IAGO, 'invalid_emoji'), "Emoji 'invalid_emoji' does not exist", 404);
    expectSuccess(await upload(HAMLET, 'twice'));
    expectSuccess(await deactivate(HAMLET, 'twice'));
    await expectRefused(() => deactivate(HAMLET, 'twice'), "Emoji 'twice' does not exist", 404);
    expectSuccess(await upload(HAMLET, 'zulip_only'));
    await expectRefused(() => deactivate(KING, 'zulip_only'), "Emoji 'zulip_only' does not exist", 404);
  });

  it("lets the author of a new emoji remove it though an older one of the name was another user's", async () => {
    expectSuccess(await upload(CORDELIA, 'test_emoji'));
    expectSuccess(await deactivate(CORDELIA, 'test_emoji'));
    expectSuccess(await upload(OTHELLO, 'test_emoji'));
    expectSuccess(await deactivate(OTHELLO, 'test_emoji'));
  });
});

describe('GET /user_avatars/{realm}/emoji/images/{file}', () => {
  it('answers 404 "File not found." for a name this service never wrote', async () => {
    const result = await fetchImage('/user_avatars/2/emoji/images/0000000000000000.png');
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toMatchObject({ result: 'error', msg: 'File not found.' });
    expect((await fetchImage('/user_avatars/2/emoji/images/..%2F..%2Fsecret')).statusCode).toBe(404);
  });
});

describe('register realm_emoji', () => {
  it("is the organization's emoji by id, deactivated ones too", async () => {
    expectSuccess(await upload(HAMLET, 'enlisted'));
    const body = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: OTHELLO, params: { fetch_event_types: ['realm_emoji'] } }),
    );
    expect(body.realm_emoji).toEqual(await list());
    expect(Object.values(body.realm_emoji).some((e: any) => e.name === 'enlisted')).toBe(true);
  });
});

describe('custom emoji in messages', () => {
  it('renders an active custom emoji as its image, and a deactivated one as text', async () => {
    expectSuccess(await upload(HAMLET, 'shown'));
    expectSuccess(await upload(HAMLET, 'concealed'));
    expectSuccess(await deactivate(HAMLET, 'concealed'));
    const { source_url } = await emojiNamed('shown');
    const { id } = expectSuccess(
      await call(sendMessage, {
        method: 'POST',
        path: '/messages',
        as: HAMLET,
        params: { type: 'stream', to: 1, topic: 'emoji', content: ':shown: :concealed:' },
      }),
    );
    const message = await messagesStore.getMessage(2, id);
    expect(message?.renderedContent).toBe(`<p><img alt=":shown:" class="emoji" src="${source_url}" title="shown"> :concealed:</p>`);
  });
});

describe('custom emoji as reactions', () => {
  const sendOne = async () =>
    expectSuccess(
      await call(sendMessage, {
        method: 'POST',
        path: '/messages',
        as: HAMLET,
        params: { type: 'stream', to: 1, topic: 'reactions', content: 'react' },
      }),
    ).id as number;
  const react = (as: string, messageId: number, params: Record<string, unknown>) =>
    call(addReaction, {
      method: 'POST',
      path: `/messages/${messageId}/reactions`,
      pathParameters: { message_id: String(messageId) },
      as,
      params,
    });

  it('adds a reaction by name (the emoji id its code) and by id, and removes it', async () => {
    expectSuccess(await upload(HAMLET, 'clap_custom'));
    const { id } = await emojiNamed('clap_custom');
    const messageId = await sendOne();
    const queue = await openQueue(OTHELLO, { eventTypes: ['reaction'] });
    expectSuccess(await react(HAMLET, messageId, { emoji_name: 'clap_custom' }));
    expectSuccess(await react(IAGO, messageId, { emoji_name: 'clap_custom', emoji_code: id, reaction_type: 'realm_emoji' }));
    expect(await queue.drain()).toEqual([
      expect.objectContaining({ op: 'add', user_id: 10, emoji_name: 'clap_custom', emoji_code: id, reaction_type: 'realm_emoji' }),
      expect.objectContaining({ op: 'add', user_id: 11, emoji_name: 'clap_custom', emoji_code: id, reaction_type: 'realm_emoji' }),
    ]);
    expectSuccess(
      await call(removeReaction, {
        method: 'DELETE',
        path: `/messages/${messageId}/reactions`,
        pathParameters: { message_id: String(messageId) },
        as: HAMLET,
        params: { emoji_name: 'clap_custom', reaction_type: 'realm_emoji' },
      }),
    );
  });

  it.each([
    [{ emoji_name: 'wrong_name', emoji_code: 'ID', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emoji_name: 'react_gone', emoji_code: 'GONE', reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
    [{ emoji_name: 'react_ok', emoji_code: '999999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'react_gone' }, "Emoji 'react_gone' does not exist"],
  ])('refuses %j with "%s", adding nothing', async (params, msg) => {
    if (!(await emojiNamed('react_ok'))) expectSuccess(await upload(HAMLET, 'react_ok'));
    if (!(await emojiNamed('react_gone'))) {
      expectSuccess(await upload(HAMLET, 'react_gone'));
      expectSuccess(await deactivate(HAMLET, 'react_gone'));
    }
    const ids = { ID: (await emojiNamed('react_ok')).id, GONE: (await emojiNamed('react_gone')).id };
    const sent = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, ids[v as keyof typeof ids] ?? v]));
    const messageId = await sendOne();
    const queue = await openQueue(OTHELLO, { eventTypes: ['reaction'] });
    expectError(await react(HAMLET, messageId, sent), msg);
    expect((await messagesStore.getMessage(2, messageId))?.reactions ?? {}).toEqual({});
    expect(await queue.drain()).toEqual([]);
  });

  it("takes a custom emoji as a user's status emoji", async () => {
    expectSuccess(await upload(HAMLET, 'status_emoji'));
    const { id } = await emojiNamed('status_emoji');
    expectSuccess(
      await call(updateStatus, { method: 'POST', path: '/users/me/status', as: HAMLET, params: { emoji_name: 'status_emoji' } }),
    );
    expectSuccess(
      await call(updateStatus, {
        method: 'POST',
        path: '/users/me/status',
        as: HAMLET,
        params: { emoji_name: 'status_emoji', emoji_code: id, reaction_type: 'realm_emoji' },
      }),
    );
  });
});
