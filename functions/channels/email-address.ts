// GET /streams/{stream_id}/email_address: the channel's email gateway address ("" without a gateway).
import { getChannelEmailAddress } from '../../lib/actions/channels/email-address';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { nonNegativeInt } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const channelId = pathInt('stream_id');
  const { sender_id } = params({ sender_id: json(nonNegativeInt).optional() });
  return { email: await getChannelEmailAddress(user, channelId, sender_id) };
});
