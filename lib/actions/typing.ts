// Typing notifications (POST /typing, and POST /messages/{message_id}/typing for an edit), as
// upstream's actions/typing.py: the server keeps no typing state; it checks the request and sends
// one `typing` (or `typing_edit_message`) event to the users who should see it.
import { accessChannelWithViewer, checkCanPostToChannel } from '../access/channels';
import { checkCanEditContent } from '../access/message-edit';
import { accessEditableMessage } from '../access/messages';
import { nowSeconds } from '../clock';
import type { Channel } from '../models/channel';
import type { Realm } from '../models/realm';
import { BadRequestError } from '../errors';
import { sendEvent } from '../events/send';
import type { TypingEditMessageEvent, TypingEvent } from '../models/event';
import { EMPTY_TOPIC_ALIASES } from '../models/message-send';
import '../events/filters/typing';
import type { User } from '../models/user';
import { settingsOfUser } from '../models/user-settings';
import * as channelsStore from '../store/channels';
import * as usersStore from '../store/users';

/** Upstream's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: larger channels get no typing events. */
const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

export type TypingOp = 'start' | 'stop';

const userRef = (u: User) => ({ user_id: u.id, email: u.email });

/**
 * Who gets a channel's typing events: its active subscribers whose receives_typing_notifications is
 * on; undefined (nobody, without reading them) when it has more than
 * MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS subscribers.
 */
const channelTypingAudience = async (channel: Channel): Promise<number[] | undefined> => {
  if (channel.subscriberCount > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return undefined;
  const subscriberIds = await channelsStore.listSubscriberIdsOfChannel(channel.id);
  if (subscriberIds.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return undefined;
  return notifiable(await usersStore.getMany(channel.realmId, subscriberIds));
};

/** Active users who have not turned typing notifications off. */
const notifiable = (users: User[]): number[] => [
  ...new Set(users.filter((u) => u.isActive && settingsOfUser(u).receives_typing_notifications).map((u) => u.id)),
];

/**
 * Direct-message typing. Checks, in upstream's order: `to` given ("Missing 'to' argument") and
 * not empty ("Empty 'to' list"), the sender's send_private_typing_notifications, then every id a
 * user of the organization, deactivated ones included ("Invalid user ID {id}"); the sender is
 * added if absent. No direct-message permission applies. Emits `typing` (message_type "direct",
 * recipients in request order, the sender last if added) to every active recipient, the sender
 * included, whose receives_typing_notifications is on. One batched read; no write.
 */
export const checkSendDirectTyping = async (sender: User, to: number[] | undefined, op: TypingOp): Promise<void> => {
  if (to === undefined) throw new BadRequestError("Missing 'to' argument");
  if (to.length === 0) throw new BadRequestError("Empty 'to' list");
  if (!settingsOfUser(sender).send_private_typing_notifications)
    throw new BadRequestError('User has disabled typing notifications for direct messages');
  const ids = to.includes(sender.id) ? to : [...to, sender.id];
  const found = new Map((await usersStore.getMany(sender.realmId, ids)).map((u) => [u.id, u]));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw new BadRequestError(`Invalid user ID ${missing}`);
  const recipients = ids.map((id) => found.get(id)!);
  const event: TypingEvent = { type: 'typing', op, message_type: 'direct', sender: userRef(sender), recipients: recipients.map(userRef) };
  const users = notifiable(recipients);
  if (users.length > 0) await sendEvent(sender.realmId, event, { users });
};

/**
 * Channel typing. Checks, in upstream's order: `stream_id` given ("Missing 'stream_id'
 * argument"), `topic` given ("Missing topic"), the sender's send_stream_typing_notifications,
 * then content access to the channel ("Invalid channel ID": missing, archived, private without a
 * subscription, or public to a guest), then the permission to post there (checkCanPostToChannel:
 * "You do not have permission to post in this channel."). "general chat" and "(no topic)" name
 * the empty topic.
 * Emits `typing` (message_type "stream") to the channel's active subscribers, the sender
 * included, whose receives_typing_notifications is on, only when the channel has at most
 * MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS subscribers (larger: success and no event, without
 * reading its subscribers). Queues without the stream_typing_notifications capability drop it.
 */
export const checkSendChannelTyping = async (
  sender: User,
  streamId: number | undefined,
  topic: string | undefined,
  op: TypingOp,
): Promise<void> => {
  if (streamId === undefined) throw new BadRequestError("Missing 'stream_id' argument");
  if (topic === undefined) throw new BadRequestError('Missing topic');
  if (!settingsOfUser(sender).send_stream_typing_notifications)
    throw new BadRequestError('User has disabled typing notifications for channel messages');
  const { channel, viewer } = await accessChannelWithViewer(sender, streamId, 'Invalid channel ID');
  await checkCanPostToChannel(sender, channel, viewer.subscribed);
  const users = await channelTypingAudience(channel);
  if (users === undefined) return;
  const topicName = EMPTY_TOPIC_ALIASES.includes(topic) ? '' : topic;
  const event: TypingEvent = {
    type: 'typing',
    op,
    message_type: 'stream',
    sender: userRef(sender),
    stream_id: channel.id,
    topic: topicName,
  };
  if (users.length > 0) await sendEvent(sender.realmId, event, { users });
};

/**
 * POST /messages/{message_id}/typing: typing in an edit of one's own message, as upstream's
 * send_message_edit_notification_backend. Checks, in its order: the message (accessEditableMessage,
 * as for an edit), that the caller may edit its content now (checkCanEditContent without an
 * edit's 20 s of grace), then the sender's send_stream_typing_notifications or
 * send_private_typing_notifications. Emits `typing_edit_message` to the channel's typing audience
 * (channelTypingAudience) or to the conversation's active participants whose
 * receives_typing_notifications is on, the sender included. Writes nothing.
 */
export const checkSendEditTyping = async (realm: Realm, sender: User, messageId: number, op: TypingOp): Promise<void> => {
  const { message, channel } = await accessEditableMessage(sender, messageId, { modifying: true });
  checkCanEditContent(realm, sender, message, nowSeconds(), 0);
  const settings = settingsOfUser(sender);
  const base = { type: 'typing_edit_message', op, sender_id: sender.id, message_id: message.id } as const;
  if (channel) {
    if (!settings.send_stream_typing_notifications)
      throw new BadRequestError('User has disabled typing notifications for channel messages');
    const users = await channelTypingAudience(channel);
    if (users === undefined) return;
    const event: TypingEditMessageEvent = { ...base, recipient: { type: 'channel', channel_id: channel.id, topic: message.topic } };
    if (users.length > 0) await sendEvent(sender.realmId, event, { users });
    return;
  }
  if (!settings.send_private_typing_notifications) throw new BadRequestError('User has disabled typing notifications for direct messages');
  // The sender first, then the others, as upstream lists a one-to-one conversation's recipients.
  const participants = [sender.id, ...message.dmUserIds.filter((id) => id !== sender.id)];
  const users = notifiable(await usersStore.getMany(sender.realmId, participants));
  const ordered = participants.filter((id) => users.includes(id));
  const event: TypingEditMessageEvent = { ...base, recipient: { type: 'direct', user_ids: ordered } };
  if (ordered.length > 0) await sendEvent(sender.realmId, event, { users: ordered });
};
