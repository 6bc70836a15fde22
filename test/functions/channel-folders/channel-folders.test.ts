// POST /channel_folders/create, GET /channel_folders, PATCH /channel_folders and PATCH
// /channel_folders/{channel_folder_id}, as upstream's test_channel_folders.py describes them, with
// register's channel_folders and the channel_folder events. Seeded: folder 1 "Italy" (Verona and
// Venice in it) and folder 2 "Archive" (archived, empty), both in zulip.com.
import { handler as register } from '../../../functions/events/register';
import { handler as create } from '../../../functions/channel-folders/create';
import { handler as list } from '../../../functions/channel-folders/list';
import { handler as reorder } from '../../../functions/channel-folders/reorder';
import { handler as update } from '../../../functions/channel-folders/update';
import * as foldersStore from '../../../lib/store/channel-folders';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const add = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/channel_folders/create', as, params });
const get = (as: string, params: Record<string, unknown> = {}) => call(list, { method: 'GET', path: '/channel_folders', as, params });
const order = (as: string, ids: unknown) => call(reorder, { method: 'PATCH', path: '/channel_folders', as, params: { order: ids } });
const patch = (as: string, id: number | string, params: Record<string, unknown>) =>
  call(update, { ...atPath('PATCH', '/channel_folders/{channel_folder_id}', { channel_folder_id: id }), as, params });
const stored = (realmId = 2) => foldersStore.listFolders(realmId, { consistent: true });
const storedFolder = async (id: number) => (await foldersStore.getFolder(2, id))?.folder;
const NOT_ADMIN = 'Must be an organization administrator';
const names = async () => (await stored()).map((f) => f.name);

describe('POST /channel_folders/create', () => {
  it('creates a folder last in order, returns its id and sends it to everyone in the organization', async () => {
    const guest = await openQueue('polonius@zulip.com', { eventTypes: ['channel_folder'] });
    const elsewhere = await openQueue('king@lear.org');
    const { channel_folder_id: id } = expectSuccess(
      await add('iago@zulip.com', { name: 'Frontend', description: 'Channels for **frontend**' }),
    );
    const folder = {
      id,
      name: 'Frontend',
      description: 'Channels for **frontend**',
      rendered_description: '<p>Channels for <strong>frontend</strong></p>',
      order: id,
      date_created: expect.any(Number),
      creator_id: 11,
      is_archived: false,
    };
    expect(await guest.drain()).toEqual([{ type: 'channel_folder', op: 'add', channel_folder: folder }]);
    expect(await elsewhere.drain()).toEqual([]);
    const body = expectSuccess(await get('hamlet@zulip.com'));
    expect(body.channel_folders.map((f: { name: string }) => f.name)).toEqual(['Italy', 'Frontend']);
    expect(body.channel_folders[1]).toEqual(folder);
  });

  it('refuses a member: "Must be an organization administrator", creating nothing', async () => {
    const before = await names();
    expectError(await add('hamlet@zulip.com', { name: 'Members', description: '' }), NOT_ADMIN, 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await names()).toEqual(before);
  });

  it('refuses a name a folder has in any case, an archived one too', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['channel_folder'] });
    const before = await names();
    expectError(await add('iago@zulip.com', { name: 'ITALY', description: '' }), 'Channel folder name already in use');
    expectError(await add('iago@zulip.com', { name: 'archive', description: '' }), 'Channel folder name already in use');
    expect(await names()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    [{ name: '', description: 'x' }, "Channel folder name can't be empty."],
    [{ name: '   ', description: 'x' }, "Channel folder name can't be empty."],
    [{ name: 'abc\u0000', description: 'x' }, 'Invalid character in channel folder name, at position 4.'],
    [{ name: 'x'.repeat(61), description: '' }, 'name is too long (limit: 60 characters)'],
    [{ name: 'Long', description: 'x'.repeat(1025) }, 'description is too long (limit: 1024 characters)'],
    [{ name: 'No description' }, "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING'],
  ])('refuses %j: %s, creating nothing', async (params, message, code = 'BAD_REQUEST') => {
    const before = await names();
    expectError(await add('iago@zulip.com', params), message, 400, code);
    expect(await names()).toEqual(before);
  });

  it('lets only one of two racing requests create a folder of one name', async () => {
    const results = await Promise.all([
      add('iago@zulip.com', { name: 'Racing', description: '' }),
      add('desdemona@zulip.com', { name: 'racing', description: '' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await names()).filter((n) => n.toLowerCase() === 'racing')).toHaveLength(1);
  });
});

describe('GET /channel_folders', () => {
  it('lists the organization folders in display order for a guest, archived ones only when asked', async () => {
    const plain = expectSuccess(await get('polonius@zulip.com'));
    expect(plain.channel_folders.every((f: { is_archived: boolean }) => !f.is_archived)).toBe(true);
    expect(plain.channel_folders[0]).toMatchObject({ id: 1, name: 'Italy', order: 0 });
    const all = expectSuccess(await get('polonius@zulip.com', { include_archived: true }));
    expect(all.channel_folders.slice(0, 2).map((f: { id: number }) => f.id)).toEqual([1, 2]);
    expect(expectSuccess(await get('king@lear.org')).channel_folders).toEqual([]);
  });

  it('refuses include_archived that is not a boolean', async () => {
    expectError(await get('hamlet@zulip.com', { include_archived: 'yes' }), 'include_archived is not valid JSON');
  });
});

describe('PATCH /channel_folders/{channel_folder_id}', () => {
  it('renames, describes, archives and unarchives a folder, one update event per property in order', async () => {
    const { channel_folder_id: id } = expectSuccess(await add('iago@zulip.com', { name: 'Backend', description: 'old' }));
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['channel_folder'] });
    expectSuccess(await patch('iago@zulip.com', id, { name: 'Web backend', description: 'Channels for **backend**', is_archived: true }));
    expect(await storedFolder(id)).toMatchObject({ name: 'Web backend', description: 'Channels for **backend**', isArchived: true });
    expectSuccess(await patch('iago@zulip.com', id, { is_archived: false, description: '' }));
    expect(await queue.drain()).toEqual([
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Web backend' } },
      {
        type: 'channel_folder',
        op: 'update',
        channel_folder_id: id,
        data: { description: 'Channels for **backend**', rendered_description: '<p>Channels for <strong>backend</strong></p>' },
      },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: '', rendered_description: '' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: false } },
    ]);
    // The old name is free again; the new one is taken.
    expectSuccess(await add('iago@zulip.com', { name: 'backend', description: '' }));
    expectError(await add('iago@zulip.com', { name: 'WEB BACKEND', description: '' }), 'Channel folder name already in use');
  });

  it('refuses a member, changing nothing', async () => {
    const before = await storedFolder(1);
    expectError(await patch('hamlet@zulip.com', 1, { name: 'Italia' }), NOT_ADMIN, 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await storedFolder(1)).toEqual(before);
  });

  it('gives a name to only one of two folders renamed to it at once', async () => {
    const ids: number[] = [];
    for (const name of ['Left', 'Right']) ids.push(expectSuccess(await add('iago@zulip.com', { name, description: '' })).channel_folder_id);
    const results = await Promise.all(ids.map((id) => patch('iago@zulip.com', id, { name: 'Center' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await names()).filter((n) => n === 'Center')).toHaveLength(1);
  });

  it('changes nothing and sends nothing for values equal to the stored ones', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['channel_folder'] });
    expectSuccess(await patch('iago@zulip.com', 2, { name: 'Archive', description: '', is_archived: true }));
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses to archive a folder with channels in it, and changes nothing else of the request', async () => {
    const before = await storedFolder(1);
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['channel_folder'] });
    expectError(
      await patch('iago@zulip.com', 1, { name: 'Italia', is_archived: true }),
      'You need to remove all the channels from this folder to archive it.',
    );
    expect(await storedFolder(1)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['iago@zulip.com', 999, { name: 'Italia' }, 'Invalid channel folder ID'],
    ['king@lear.org', 1, { name: 'Italia' }, 'Invalid channel folder ID'],
    ['iago@zulip.com', 1, { name: '' }, "Channel folder name can't be empty."],
    ['iago@zulip.com', 1, { name: 'archive' }, 'Channel folder name already in use'],
    ['iago@zulip.com', 1, { name: 'italy' }, 'Channel folder name already in use'],
    ['iago@zulip.com', 1, { name: 'abc\u0000' }, 'Invalid character in channel folder name, at position 4.'],
    ['iago@zulip.com', 1, { description: 'x'.repeat(1025) }, 'description is too long (limit: 1024 characters)'],
    ['iago@zulip.com', 1, { is_archived: 'no' }, 'is_archived is not valid JSON'],
  ])('as %s, folder %d, %j: %s, changing nothing', async (as, id, params, message) => {
    const before = await storedFolder(1);
    expectError(await patch(as, id, params), message);
    expect(await storedFolder(1)).toEqual(before);
  });
});

describe('PATCH /channel_folders', () => {
  it('reorders every folder, which register then shows, and sends the order to everyone', async () => {
    const ids = (await stored()).map((f) => f.id);
    const reversed = [...ids].reverse();
    const queue = await openQueue('polonius@zulip.com', { eventTypes: ['channel_folder'] });
    expectSuccess(await order('iago@zulip.com', reversed));
    expect(await queue.drain()).toEqual([{ type: 'channel_folder', op: 'reorder', order: reversed }]);
    const body = expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: 'hamlet@zulip.com',
        params: { fetch_event_types: ['channel_folders'] },
      }),
    );
    expect(body.channel_folders.map((f: { id: number; order: number }) => [f.id, f.order])).toEqual(reversed.map((id, i) => [id, i]));
  });

  it.each([
    ['a missing folder', (ids: number[]) => ids.slice(1)],
    ['a folder twice', (ids: number[]) => [...ids, ids[0]]],
    ['another organization folder', (ids: number[]) => [...ids.slice(1), 999]],
  ])('refuses an order with %s: "Invalid order mapping.", changing nothing', async (_what, wrong) => {
    const before = await stored();
    expectError(await order('iago@zulip.com', wrong(before.map((f) => f.id))), 'Invalid order mapping.');
    expect(await stored()).toEqual(before);
  });

  it('refuses a member', async () => {
    const before = await stored();
    expectError(
      await order(
        'hamlet@zulip.com',
        before.map((f) => f.id),
      ),
      NOT_ADMIN,
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await stored()).toEqual(before);
  });
});
