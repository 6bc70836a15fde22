// GET /channel_folders
import { listChannelFolders } from '../../lib/actions/channels/folders';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { include_archived } = params({ include_archived: json(bool).default(false) });
  return { channel_folders: await listChannelFolders(user, include_archived) };
});
