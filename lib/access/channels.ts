// Upstream's access_stream_by_id for reading a channel's content: the channel exists in the
// user's organization, is not archived, and is web-public, public (for non-guests) or one the user
// is subscribed to. Anything else looks missing: "Invalid channel ID".
import { BadRequestError } from '../errors';
import type { Channel, Subscription } from '../models/channel';
import { isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';
import { RealmGroups } from './user-groups';

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

/**
 * Upstream's access_stream_for_send_message, for a user (not a forwarded or cross-realm send), in
 * its order: the channel's can_send_message_group ("You do not have permission to post in this
 * channel."; a bot is judged by its owner's membership), then the channel not archived, and
 * web-public, public to a non-guest, subscribed, or, with shared history, a non-guest in its
 * can_subscribe_group or can_add_subscribers_group ("Not authorized to send to channel
 * '{name}'"). Reads the organization's groups (one query).
 */
export const checkCanPostToChannel = async (user: User, channel: Channel, subscription: Subscription | undefined): Promise<void> => {
  const groups = await RealmGroups.load(user.realmId);
  const poster = user.isBot && user.botOwnerId !== null ? user.botOwnerId : user.id;
  if (!groups.isInSetting(channel.groupSettings.can_send_message_group, poster)) {
    throw new BadRequestError('You do not have permission to post in this channel.');
  }
  const refused = new BadRequestError(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw refused;
  if (channel.isWebPublic) return;
  if (!channel.inviteOnly && !isGuest(user)) return;
  if (subscription?.active === true) return;
  const canJoin = ['can_subscribe_group', 'can_add_subscribers_group'].some((s) => groups.isInSetting(channel.groupSettings[s], user.id));
  if (!isGuest(user) && channel.historyPublicToSubscribers && canJoin) return;
  throw refused;
};
