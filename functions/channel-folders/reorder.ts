// PATCH /channel_folders
import { checkReorderChannelFolders } from '../../lib/actions/channels/folders';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const reorderChannelFolders = checkReorderChannelFolders.authorize(user);
  const { order } = params({ order: json(list(int)) });
  await reorderChannelFolders(order);
});
