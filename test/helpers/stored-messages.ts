// Messages for edit and delete tests, written through the send path's store writer
// (writeNewMessage): a channel message reaches the channel's subscribers, a direct message its
// participants; the sender's row is read, the others unread, as a send leaves them.
import { nowSeconds } from '../../lib/clock';
import type { Message } from '../../lib/models/message';
import { renderMessage } from '../../lib/render';
import * as channelsStore from '../../lib/store/channels';
import * as messagesStore from '../../lib/store/messages';

export type StoredMessageOptions = {
  sender: number;
  content?: string;
  /** A channel message, with its topic. */
  channelId?: number;
  topic?: string;
  /** A direct message to these users (the sender is added). */
  to?: number[];
  /** Flags of some recipients besides read (e.g. { 8: ['mentioned'] }). */
  extraFlags?: Record<number, string[]>;
};

export const storeMessage = async (opts: StoredMessageOptions): Promise<Message> => {
  const realmId = 2;
  const id = await messagesStore.allocateMessageId(realmId);
  const content = opts.content ?? 'hello';
  const channel = opts.channelId === undefined ? undefined : await channelsStore.getChannel(realmId, opts.channelId);
  const dmUserIds = opts.to ? [...new Set([...opts.to, opts.sender])].sort((a, b) => a - b) : [];
  const m: Message = {
    id,
    realmId,
    senderId: opts.sender,
    streamId: channel ? channel.id : null,
    topic: channel ? (opts.topic ?? 'edits') : '',
    dmUserIds,
    content,
    dateSent: nowSeconds(),
    renderedContent: renderMessage(content, { users: [], groups: [], channels: [], linkifiers: [] }).html,
  };
  const userIds = channel ? [...new Set([...(await channelsStore.listSubscriberIdsOfChannel(channel.id)), opts.sender])] : dmUserIds;
  const recipients = userIds.map((userId) => ({
    userId,
    flags: [...(userId === opts.sender ? ['read'] : []), ...(opts.extraFlags?.[userId] ?? [])],
  }));
  await messagesStore.writeNewMessage(m, recipients, channel);
  return m;
};
