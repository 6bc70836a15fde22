import type { ChannelFolder } from './channel';

/** Upstream's ChannelFolder.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH (register's max_channel_folder_*_length). */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

/**
 * The API's shape of a folder (register's `channel_folders`, GET /channel_folders, the
 * `channel_folder` add event); `render` turns the description's Markdown into HTML.
 */
export const toApiChannelFolder = (folder: ChannelFolder, render: (markdown: string) => string): Record<string, unknown> => ({
  id: folder.id,
  name: folder.name,
  description: folder.description,
  rendered_description: render(folder.description),
  order: folder.order,
  date_created: folder.dateCreated,
  creator_id: folder.creatorId,
  is_archived: folder.isArchived,
});

/** Folders in display order (`order`, then id), as upstream's list is sorted for signed-in users. */
export const sortFoldersForDisplay = (folders: ChannelFolder[]): ChannelFolder[] =>
  [...folders].sort((a, b) => a.order - b.order || a.id - b.id);
