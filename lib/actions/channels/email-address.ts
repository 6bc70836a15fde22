// A channel's email address (upstream's get_channel_email_address_backend).
import { accessChannelById } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import { isAdmin, type User } from '../../models/user';
import * as usersStore from '../../store/users';

/**
 * GET /streams/{stream_id}/email_address, as upstream's get_stream_email_address: a channel the
 * caller may read ("Invalid channel ID") and post to (its can_send_message_group, judging a bot by
 * its owner: "You do not have permission to post in this channel."); `sender_id`, when given and
 * not the caller, must be a bot of the organization ("No such bot") that the caller owns or
 * administers ("Insufficient permission"), as upstream's access_bot_by_id. This service has no
 * email gateway, so the address is what upstream answers on a deployment without one: "".
 * Reads only.
 */
export const getChannelEmailAddress = async (user: User, channelId: number, senderId: number | undefined): Promise<string> => {
  const channel = await accessChannelById(user, channelId, 'Invalid channel ID');
  const groups = await RealmGroups.load(user.realmId);
  const poster = user.isBot && user.botOwnerId !== null ? user.botOwnerId : user.id;
  if (!groups.isInSetting(channel.groupSettings.can_send_message_group, poster))
    throw new BadRequestError('You do not have permission to post in this channel.');
  if (senderId !== undefined && senderId !== user.id) {
    const bot = await usersStore.get(user.realmId, senderId);
    if (!bot || !bot.isBot || !bot.isActive) throw new BadRequestError('No such bot');
    if (bot.botOwnerId !== user.id && !isAdmin(user)) throw new BadRequestError('Insufficient permission');
  }
  return '';
};
