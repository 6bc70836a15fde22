// Upstream's access_stream_by_id for reading a channel's content: the channel exists in the
// user's organization, is not archived, and is web-public, public (for non-guests) or one the user
// is subscribed to. Anything else looks missing: "Invalid channel ID".
import { BadRequestError } from '../errors';
import type { Channel, Subscription } from '../models/channel';
import { isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';

/** The channel and the user's subscription row, or "Invalid channel ID". Two reads, concurrent. */
export const accessChannelForContent = async (user: User, channelId: number): Promise<{ channel: Channel; subscription: Subscription | undefined }> => {
  const [channel, subscription] = await Promise.all([
    channelsStore.getChannel(user.realmId, channelId),
    channelsStore.getSubscription(user.id, channelId),
  ]);
  const visible =
    channel !== undefined &&
    !channel.isArchived &&
    (channel.isWebPublic || (!channel.inviteOnly && !isGuest(user)) || subscription?.active === true);
  if (!visible) throw new BadRequestError('Invalid channel ID');
  return { channel, subscription };
};
