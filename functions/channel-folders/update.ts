// PATCH /channel_folders/{channel_folder_id}
import { checkUpdateChannelFolder } from '../../lib/actions/channels/folders';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../../lib/models/channel-folder';
import { bool, string } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const updateChannelFolder = checkUpdateChannelFolder.authorize(user);
  const folderId = pathInt('channel_folder_id');
  const p = params({
    description: rawString(string({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH })).optional(),
    is_archived: json(bool).optional(),
    name: rawString(string({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH })).optional(),
  });
  await updateChannelFolder(folderId, { name: p.name, description: p.description, isArchived: p.is_archived });
});
