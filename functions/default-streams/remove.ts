// DELETE /default_streams
import { checkRemoveDefaultChannel } from '../../lib/actions/organization/default-channels';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const removeDefaultChannel = checkRemoveDefaultChannel.authorize(user);
  const { stream_id } = params({ stream_id: json(int) });
  await removeDefaultChannel(stream_id);
});
