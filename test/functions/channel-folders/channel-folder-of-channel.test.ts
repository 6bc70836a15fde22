// A channel's folder through PATCH /streams/{stream_id} folder_id (upstream's
// do_change_stream_folder): the stream update event, the folder's channel count that keeps a
// folder in use from being archived, and "Invalid channel folder ID". Development data: Denmark
// (1) is public and in no folder; folder 1 (Italy) holds Verona and Venice.
import { handler as createFolder } from '../../../functions/channel-folders/create';
import { handler as updateFolder } from '../../../functions/channel-folders/update';
import { handler as updateChannel } from '../../../functions/channels/update';
import * as foldersStore from '../../../lib/store/channel-folders';
import * as channelsStore from '../../../lib/store/channels';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const patchChannel = (as: string, channelId: number, params: Record<string, unknown>) =>
  call(updateChannel, { method: 'PATCH', path: `/streams/${channelId}`, pathParameters: { stream_id: String(channelId) }, as, params });
const archiveFolder = (id: number, isArchived = true) =>
  call(updateFolder, {
    ...atPath('PATCH', '/channel_folders/{channel_folder_id}', { channel_folder_id: id }),
    as: 'iago@zulip.com',
    params: { is_archived: isArchived },
  });
const newFolder = async (name: string): Promise<number> =>
  expectSuccess(
    await call(createFolder, { method: 'POST', path: '/channel_folders/create', as: 'iago@zulip.com', params: { name, description: '' } }),
  ).channel_folder_id;
const denmark = async () => (await channelsStore.getChannel(2, 1, { consistent: true }))!;
const countIn = async (folderId: number) => (await foldersStore.getFolder(2, folderId))!.channelCount;

describe('PATCH /streams/{stream_id} folder_id', () => {
  it('puts a channel in a folder and takes it out, telling who sees the channel', async () => {
    const folderId = await newFolder('Nordic');
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['stream'] });
    expectSuccess(await patchChannel('iago@zulip.com', 1, { folder_id: folderId }));
    expect((await denmark()).folderId).toBe(folderId);
    expect(await countIn(folderId)).toBe(1);
    expectError(await archiveFolder(folderId), 'You need to remove all the channels from this folder to archive it.');

    expectSuccess(await patchChannel('iago@zulip.com', 1, { folder_id: null }));
    expect((await denmark()).folderId).toBeNull();
    expect(await countIn(folderId)).toBe(0);
    expectSuccess(await archiveFolder(folderId));
    expect(await queue.drain()).toEqual([
      { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'folder_id', value: folderId },
      { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'folder_id', value: null },
    ]);
  });

  it('moves a channel from one folder to another, each count following', async () => {
    const [from, to] = [await newFolder('From'), await newFolder('To')];
    expectSuccess(await patchChannel('iago@zulip.com', 1, { folder_id: from }));
    expectSuccess(await patchChannel('iago@zulip.com', 1, { folder_id: to }));
    expect([await countIn(from), await countIn(to)]).toEqual([0, 1]);
    expectSuccess(await patchChannel('iago@zulip.com', 1, { folder_id: null }));
  });

  it.each([
    ['a folder that does not exist', 'iago@zulip.com', { folder_id: 999 }, 'Invalid channel folder ID'],
    ['a folder id that is not a number', 'iago@zulip.com', { folder_id: 'x' }, 'folder_id is not valid JSON'],
    [
      'a member who does not administer the channel',
      'hamlet@zulip.com',
      { folder_id: 1 },
      'You do not have permission to administer this channel.',
    ],
  ])('refuses %s, changing nothing', async (_what, as, params, message) => {
    const before = await denmark();
    const count = await countIn(1);
    expectError(await patchChannel(as, 1, params), message);
    expect(await denmark()).toEqual(before);
    expect(await countIn(1)).toBe(count);
  });

  it("keeps the folder's channel count true when a move into it races with its archiving", async () => {
    const folderId = await newFolder('Contested');
    const [moved, archived] = await Promise.all([patchChannel('iago@zulip.com', 1, { folder_id: folderId }), archiveFolder(folderId)]);
    expect(moved.status).toBe(200);
    // Archived only while empty: after the move came first, archiving is refused.
    if (archived.status !== 200) expectError(archived, 'You need to remove all the channels from this folder to archive it.');
    expect((await denmark()).folderId).toBe(folderId);
    expect(await countIn(folderId)).toBe(1);
    await patchChannel('iago@zulip.com', 1, { folder_id: null });
  });
});
