// POST /channel_folders/create
import { checkAddChannelFolder } from '../../lib/actions/channels/folders';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../../lib/models/channel-folder';
import { string } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const addChannelFolder = checkAddChannelFolder.authorize(user);
  const { name, description } = params({
    description: rawString(string({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH })),
    name: rawString(string({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH })),
  });
  return { channel_folder_id: await addChannelFolder(name, description) };
});
