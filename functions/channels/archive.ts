// DELETE /streams/{stream_id}: archive a channel.
import { checkArchiveChannel } from '../../lib/actions/channels/archive';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkArchiveChannel(realm, user, pathInt('stream_id'));
});
