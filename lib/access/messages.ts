// Who may see or act on a message: upstream's access_message / access_message_and_usermessage
// (zerver/lib/message.py), in one place for reactions and any other action on one message.
import { BadRequestError } from '../errors';
import type { Channel } from '../models/channel';
import type { Message, UserMessage } from '../models/message';
import type { User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as messagesStore from '../store/messages';
import { canReadChannelMessage, loadChannelViewer, type ChannelViewer } from './channels';

/** A message the user may access, the user's own row of it (if they received it) and, for a channel message, the channel. */
export type AccessedMessage<M extends Message = Message> = {
  message: M;
  userMessage: UserMessage | undefined;
  channel: Channel | undefined;
  viewer: ChannelViewer | undefined;
};

/**
 * Upstream's access_message_and_usermessage: the message of the user's organization, which the user
 * received (direct messages) or may read in its channel (canReadChannelMessage); with `modifying`
 * (reacting, editing), never in an archived channel. Anything else, another organization's message
 * included, is "Invalid message(s)". Reads the message and the user's row concurrently, then the
 * channel and the user's subscription.
 */
export const accessMessage = async <M extends Message = Message>(
  user: User,
  messageId: number,
  opts: {
    modifying: boolean;
    /** How to read the message item (an edit reads it consistently, with its history). */
    load?: (realmId: number, messageId: number) => Promise<M | undefined>;
  },
): Promise<AccessedMessage<M>> => {
  const load = opts.load ?? (messagesStore.getMessage as (realmId: number, messageId: number) => Promise<M | undefined>);
  const [message, userMessage] = await Promise.all([load(user.realmId, messageId), messagesStore.getUserMessage(user.id, messageId)]);
  const invalid = new BadRequestError('Invalid message(s)');
  if (!message || message.realmId !== user.realmId) throw invalid;
  if (message.streamId === null) {
    if (!userMessage) throw invalid;
    return { message, userMessage, channel: undefined, viewer: undefined };
  }
  const channel = await channelsStore.getChannel(user.realmId, message.streamId);
  if (!channel || (opts.modifying && channel.isArchived)) throw invalid;
  const viewer = await loadChannelViewer(user, channel);
  if (!canReadChannelMessage(channel, viewer, userMessage !== undefined)) throw invalid;
  return { message, userMessage, channel, viewer };
};
