// Channel folders (upstream's zerver/views/channel_folders.py, zerver/actions/channel_folders.py,
// zerver/lib/channel_folders.py): administrators create, rename, describe, archive and reorder
// them; everyone in the organization reads them and gets their `channel_folder` events. A
// channel's folder is set through the channel (update.ts, subscriptions.ts), which keeps the
// folder's channel count; a folder with channels in it cannot be archived.
import { nowSeconds } from '../../clock';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { ChannelFolder } from '../../models/channel';
import { sortFoldersForDisplay, toApiChannelFolder } from '../../models/channel-folder';
import type { ChannelFolderEvent } from '../../models/event';
import { firstUnprintable } from '../../models/message-send';
import type { User } from '../../models/user';
import { renderPlainMarkdown } from '../../render';
import * as foldersStore from '../../store/channel-folders';
import { allocateIds } from '../../store/common';
import { forAdministrators } from '../requiring';
import { LostRaceError, retryLostRaces } from '../retry';

const INVALID_FOLDER = 'Invalid channel folder ID';

const notify = (realmId: number, event: ChannelFolderEvent): Promise<void> => sendEvent(realmId, event, 'realm');

/** Upstream's get_channel_folder_by_id: a folder of the organization (archived too), else "Invalid channel folder ID". */
export const accessChannelFolder = async (realmId: number, folderId: number): Promise<ChannelFolder> => {
  const found = await foldersStore.getFolder(realmId, folderId);
  if (!found) throw new BadRequestError(INVALID_FOLDER);
  return found.folder;
};

/**
 * Upstream's check_channel_folder_name: not blank, only printable characters, and no folder of
 * the organization with this name in any case (the folder being renamed included, as upstream's).
 */
const checkFolderName = async (realmId: number, name: string): Promise<void> => {
  if (name.trim() === '') throw new BadRequestError("Channel folder name can't be empty.");
  const bad = firstUnprintable(name);
  if (bad !== undefined) throw new BadRequestError(`Invalid character in channel folder name, at position ${bad}.`);
  if (await foldersStore.isFolderNameTaken(realmId, name)) throw new BadRequestError('Channel folder name already in use');
};

/**
 * POST /channel_folders/create: checks the name (checkFolderName), then writes the folder (its
 * `order` its id, so it comes last) with its name claim and the organization's folder count in one
 * transaction: of two concurrent requests for one name, one gets "Channel folder name already in
 * use". Emits `channel_folder` add to everyone in the organization. Returns the new folder's id.
 */
export const checkAddChannelFolder = forAdministrators(async (user: User, name: string, description: string): Promise<number> => {
  await checkFolderName(user.realmId, name);
  const id = await allocateIds('channelFolder');
  const folder: ChannelFolder = {
    id,
    realmId: user.realmId,
    name,
    description,
    order: id,
    dateCreated: nowSeconds(),
    creatorId: user.id,
    isArchived: false,
  };
  const outcome = await retryLostRaces(async () => {
    const written = await foldersStore.createFolder(folder);
    if (written === 'conflict') throw new LostRaceError();
    return written;
  });
  if (outcome === 'taken') throw new BadRequestError('Channel folder name already in use');
  if (outcome === 'full') throw new BadRequestError('Too many channel folders in this organization');
  await notify(user.realmId, { type: 'channel_folder', op: 'add', channel_folder: toApiChannelFolder(folder, renderPlainMarkdown) });
  return id;
});

/** GET /channel_folders: the organization's folders in display order, archived ones only with `includeArchived`. */
export const listChannelFolders = async (user: User, includeArchived: boolean): Promise<Record<string, unknown>[]> => {
  const folders = await foldersStore.listFolders(user.realmId);
  return sortFoldersForDisplay(folders.filter((f) => includeArchived || !f.isArchived)).map((f) =>
    toApiChannelFolder(f, renderPlainMarkdown),
  );
};

/**
 * PATCH /channel_folders: `order` must hold each of the organization's folders (archived ones
 * too) exactly once, else "Invalid order mapping."; each folder's `order` becomes its index, in
 * transactions that lose (and read again) if a folder was created meanwhile. Emits
 * `channel_folder` reorder with `order` to everyone in the organization.
 */
export const checkReorderChannelFolders = forAdministrators(async (user: User, order: number[]): Promise<void> => {
  await retryLostRaces(async () => {
    const folders = await foldersStore.listFolders(user.realmId, { consistent: true });
    const ids = new Set(folders.map((f) => f.id));
    if (new Set(order).size !== order.length || order.length !== ids.size || !order.every((id) => ids.has(id)))
      throw new BadRequestError('Invalid order mapping.');
    if (!(await foldersStore.reorderFolders(user.realmId, folders.length, order))) throw new LostRaceError();
  });
  await notify(user.realmId, { type: 'channel_folder', op: 'reorder', order });
});

/** What PATCH /channel_folders/{channel_folder_id} asks to change (absent: unchanged). */
export type ChannelFolderUpdate = { name?: string; description?: string; isArchived?: boolean };

/**
 * PATCH /channel_folders/{channel_folder_id}: "Invalid channel folder ID" for a folder not of the
 * organization; a new name is checked (checkFolderName); archiving a folder that has channels
 * (archived ones too) is "You need to remove all the channels from this folder to archive it.".
 * Values equal to the stored ones change nothing. Every change is checked before one conditional
 * write (a concurrent change, or a channel moved in meanwhile, makes it read and check again).
 * Emits a `channel_folder` update per changed property, in upstream's order: name, description
 * (with rendered_description), is_archived; to everyone in the organization.
 */
export const checkUpdateChannelFolder = forAdministrators(async (user: User, folderId: number, req: ChannelFolderUpdate): Promise<void> => {
  const changes = await retryLostRaces(async () => {
    const found = await foldersStore.getFolder(user.realmId, folderId);
    if (!found) throw new BadRequestError(INVALID_FOLDER);
    const { folder, channelCount } = found;
    const next: ChannelFolderUpdate = {};
    if (req.name !== undefined && req.name !== folder.name) {
      await checkFolderName(user.realmId, req.name);
      next.name = req.name;
    }
    if (req.description !== undefined && req.description !== folder.description) next.description = req.description;
    if (req.isArchived !== undefined && req.isArchived !== folder.isArchived) {
      if (req.isArchived && channelCount > 0)
        throw new BadRequestError('You need to remove all the channels from this folder to archive it.');
      next.isArchived = req.isArchived;
    }
    if (Object.keys(next).length > 0 && !(await foldersStore.updateFolder(folder, next))) throw new LostRaceError();
    return next;
  });
  const update = (data: Record<string, unknown>) =>
    notify(user.realmId, { type: 'channel_folder', op: 'update', channel_folder_id: folderId, data });
  if (changes.name !== undefined) await update({ name: changes.name });
  if (changes.description !== undefined)
    await update({ description: changes.description, rendered_description: renderPlainMarkdown(changes.description) });
  if (changes.isArchived !== undefined) await update({ is_archived: changes.isArchived });
});
