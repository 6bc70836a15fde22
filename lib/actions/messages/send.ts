// POST /messages (upstream's send_message_backend, check_message and do_send_messages), in
// upstream's order of checks: the addressee (`to`, topic, recipients), the content, the channel or
// direct-message permissions, rendering and mention permissions, then one write (id, message item,
// recipients record, summaries: lib/store/messages.ts writeNewMessage) and the delivery (rows and
// one `message` event per recipient with its own flags: lib/actions/messages/delivery.ts). Nothing
// is written before every check has passed; the reads the checks need start together, before the
// first check, so a send waits for few round trips in a row.
import { canReadChannelMessage, checkCanPostToChannel, loadChannelViewer } from '../../access/channels';
import { checkCanMentionChannelWildcard, checkCanMentionGroups, checkCanMentionTopicWildcard } from '../../access/mentions';
import { RealmGroups } from '../../access/user-groups';
import { nowSeconds } from '../../clock';
import { prefetch } from '../../concurrency';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { doDeliverMessage, doWriteMessage, orderSenderFirst } from './delivery';
import { doStartPushNotifications } from '../push/notifications';
import { doStartOutgoingWebhooks } from '../outgoing-webhooks/triggers';
import { renderContent, type RenderedContent } from './render';
import { claimAttachmentsForMessage } from '../uploads/files';
import { notifyAttachmentsClaimed } from '../uploads/attachments';
import { doApplyAutomaticTopicPolicies, readSendTopicFacts, type SendTopicFacts } from '../channels/user-topics';
import type { Channel } from '../../models/channel';
import type { Message, MessageRecipient } from '../../models/message';
import { normalizeMessageContent, normalizeTopic, pyStrip, charLength } from '../../models/message-content';
import {
  EMPTY_TOPIC_ALIASES,
  EMPTY_TOPIC_FALLBACK_NAME,
  defaultReadBySender,
  firstUnprintable,
  parseChannelIndicator,
  parseDirectRecipients,
  type ChannelIndicator,
  type DirectRecipients,
} from '../../models/message-send';
import type { Realm } from '../../models/realm';
import { MAX_WIDGET_CONTENT_BYTES, widgetContentError, widgetOf, widgetSubmessageContent, type Widget } from '../../models/submessage';
import { mutersOf } from '../../models/muted-user';
import type { User } from '../../models/user';
import { realmGroupSetting } from '../../models/user-group';
import { settingsOfUser } from '../../models/user-settings';
import * as channelsStore from '../../store/channels';
import * as linkifiersStore from '../../store/linkifiers';
import * as messagesStore from '../../store/messages';
import * as topicsStore from '../../store/topics';
import * as submessagesStore from '../../store/submessages';
import * as userDataStore from '../../store/user-data';
import * as usersStore from '../../store/users';
import { usersAlertedBy } from '../../render/alert-words';
import { escapeHtml } from '../../models/html';

export type SendMessageRequest = {
  type: 'stream' | 'private';
  to: string | undefined;
  topic: string | undefined;
  content: string;
  client: string;
  readBySender: boolean | undefined;
  queueId: string | undefined;
  localId: string | undefined;
  forged: string | undefined;
  sender: string | undefined;
  /** A bot's widget (upstream's widget_content: JSON, only a `zform`), instead of one from the content. */
  widgetContent?: string;
};

/** `automatic_new_visibility_policy`: only when the send changed the sender's policy for its topic. */
export type SendMessageResult = { id: number; automatic_new_visibility_policy?: number };

/** Upstream's topic rules for a channel message (before the channel is known). */
const checkTopic = (topic: string | undefined): string => {
  if (topic === undefined) throw new BadRequestError('Missing topic');
  const stripped = pyStrip(topic);
  const name = EMPTY_TOPIC_ALIASES.includes(stripped) ? '' : stripped;
  const bad = firstUnprintable(name);
  if (bad !== undefined) throw new BadRequestError(`Invalid character in topic, at position ${bad}!`);
  return name;
};

/** A channel message's topic as a send stores it (checkTopic, then the length limit): an edited scheduled message's topic. */
export const checkTopicName = (topic: string, realm: Realm): string => normalizeTopic(checkTopic(topic), realm.limits.max_topic_length);

/** The channel `to` names (upstream's validate_stream_name / access by id), archived ones included. */
const findChannel = async (realm: Realm, indicator: ChannelIndicator): Promise<Channel> => {
  if ('id' in indicator) {
    const channel = await channelsStore.getChannel(realm.id, indicator.id);
    if (!channel) {
      throw new ApiError(`Channel with ID '${indicator.id}' does not exist`, {
        code: ErrorCode.STREAM_DOES_NOT_EXIST,
        data: { stream_id: indicator.id },
      });
    }
    return channel;
  }
  const name = pyStrip(indicator.name);
  if (name.length === 0) throw new BadRequestError("Channel name can't be empty.");
  const limit = realm.limits.max_stream_name_length;
  if (charLength(name) > limit) throw new BadRequestError(`Channel name too long (limit: ${limit} characters).`);
  const bad = firstUnprintable(name);
  if (bad !== undefined) throw new BadRequestError(`Invalid character in channel name, at position ${bad}.`);
  const channel = (await channelsStore.listChannelsOfRealm(realm.id)).find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!channel) {
    const escaped = escapeHtml(name);
    throw new ApiError(`Channel '${escaped}' does not exist`, { code: ErrorCode.STREAM_DOES_NOT_EXIST, data: { stream: escaped } });
  }
  return channel;
};

/** The direct-message participants `to` names, the sender included (upstream's Addressee and recipient checks). */
const findDirectRecipients = async (sender: User, parsed: DirectRecipients): Promise<User[]> => {
  let users: User[];
  if ('emails' in parsed) {
    if (parsed.emails.length === 0) throw new BadRequestError('Message must have recipients');
    const found = await Promise.all(parsed.emails.map((email) => usersStore.getByEmail(sender.realmId, email)));
    const missing = parsed.emails.findIndex((_, i) => !found[i]);
    if (missing >= 0) throw new BadRequestError(`Invalid email '${parsed.emails[missing]}'`);
    users = found as User[];
  } else {
    if (parsed.ids.length === 0) throw new BadRequestError('Message must have recipients');
    const byId = new Map((await usersStore.getMany(sender.realmId, parsed.ids)).map((u) => [u.id, u]));
    const missing = parsed.ids.find((id) => !byId.has(id));
    if (missing !== undefined) throw new BadRequestError(`Invalid user ID ${missing}`);
    users = parsed.ids.map((id) => byId.get(id)!);
  }
  return users;
};

/** Upstream's recipient validation and check_can_send_direct_message, in its order. */
const checkDirectMessage = async (sender: User, realm: Realm, recipients: User[], groups: RealmGroups): Promise<User[]> => {
  const inactive = recipients.find((u) => !u.isActive);
  if (inactive) throw new BadRequestError(`'${inactive.email}' is no longer using Zulip.`);
  const participants = [...new Map([...recipients, sender].map((u) => [u.id, u])).values()].sort((a, b) => a.id - b.id);
  if (sender.isBot || participants.every((u) => u.isBot || u.id === sender.id)) return participants;
  const permission = realmGroupSetting(realm, groups.groups, 'direct_message_permission_group');
  if (!participants.some((u) => groups.isInSetting(permission, u.id))) {
    const nobody = groups.systemGroup('role:nobody').id;
    if (permission === nobody) throw new BadRequestError('Direct messages are disabled in this organization.');
    throw new BadRequestError('This conversation does not include any users who can authorize it.');
  }
  const initiator = realmGroupSetting(realm, groups.groups, 'direct_message_initiator_group');
  if (!groups.isInSetting(initiator, sender.id)) {
    const others = participants.filter((u) => u.id !== sender.id).map((u) => u.id);
    const known = (await messagesStore.listDmConversationsOfUser(sender.id)).some((c) => c.userIds.join(',') === others.join(','));
    if (!known) throw new BadRequestError('You do not have permission to initiate direct message conversations.');
  }
  return participants;
};

/** The senders of a topic's messages (its participants, as @**topic** counts them). */
const topicParticipants = async (channelId: number, topic: string): Promise<Set<number>> =>
  new Set(await topicsStore.listSenderIdsOfTopic(channelId, topic));

/** Upstream's check of widget_content (check_message): JSON, then check_widget_content, each error prefixed "Widgets: ". */
const checkWidgetContent = (text: string): Widget => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError('Widgets: API programmer sent invalid JSON content');
  }
  const error = widgetContentError(value);
  if (error !== undefined) throw new BadRequestError(`Widgets: ${error}`);
  const widget = value as { widget_type: string; extra_data: Record<string, unknown> };
  if (Buffer.byteLength(text, 'utf8') > MAX_WIDGET_CONTENT_BYTES)
    throw new BadRequestError(`Widgets: widget_content is too large (limit: ${MAX_WIDGET_CONTENT_BYTES / 1024} KB)`);
  return { widgetType: widget.widget_type, extraData: widget.extra_data };
};

/**
 * Sends a message: checks in upstream's order, then writes it and delivers one event per
 * recipient. Returns the new message id.
 */
export const sendMessage = async (sender: User, realm: Realm, req: SendMessageRequest): Promise<SendMessageResult> =>
  sendCheckedMessage(realm, sender, await checkMessage(sender, realm, req));

/** A send that passed every check (checkMessage), to write now (sendMessage) or later (scheduled messages). */
export type CheckedMessage = { groups: RealmGroups; send: CheckedSend };

/**
 * Upstream's check_message: every check of a send, in upstream's order, and the rendering; reads
 * only. Throws the send's 4xx; returns what sendCheckedMessage writes.
 */
export const checkMessage = async (sender: User, realm: Realm, req: SendMessageRequest): Promise<CheckedMessage> => {
  // 1. `to`, then forging and mirroring.
  const indicator = req.type === 'stream' && req.to !== undefined ? parseChannelIndicator(req.to) : undefined;
  const directTo = req.type === 'private' ? parseDirectRecipients(req.to) : undefined;
  if (req.forged === 'yes' || req.forged === 'true') throw new BadRequestError('User not authorized for this query');
  if (req.sender !== undefined) throw new BadRequestError('Invalid mirrored message');
  const readBySender = req.readBySender ?? defaultReadBySender(req.client);
  // Reads most sends need, started now: a check that fails first only wastes them.
  const groupsRead = prefetch(RealmGroups.load(realm.id));
  const linkifiersRead = prefetch(linkifiersStore.listLinkifiersOfRealm(realm.id));
  const alertWordsRead = prefetch(userDataStore.getRealmAlertWords(realm.id));
  // 2. The addressee.
  let topic = '';
  let dmRecipients: User[] = [];
  let channelRead: Promise<Channel> | undefined;
  if (req.type === 'stream') {
    if (indicator === undefined) throw new BadRequestError('Missing channel');
    topic = checkTopic(req.topic);
    channelRead = prefetch(findChannel(realm, indicator));
  } else {
    dmRecipients = await findDirectRecipients(sender, directTo!);
  }
  // 3. The content.
  const content = normalizeMessageContent(req.content);
  const groups = await groupsRead;
  let channel: Channel | undefined;
  let participants: User[] = [];
  let subscribersRead: Promise<{ ids: number[]; pushOn: number[] }> | undefined;
  let topicFactsRead: Promise<SendTopicFacts | undefined> | undefined;
  if (req.type === 'stream') {
    topic = normalizeTopic(topic, realm.limits.max_topic_length);
    channel = await channelRead!;
    subscribersRead = prefetch(channelsStore.listSubscribersForSend(channel.id));
    const viewer = await loadChannelViewer(sender, channel);
    // Topic policies that sending changes (upstream's automatic follow and unmute): what they
    // depend on is read before the write, they are set after it, and their events precede the message's.
    const readsWholeHistory = canReadChannelMessage(channel, viewer, false);
    topicFactsRead = prefetch(readSendTopicFacts(sender, channel, topic, { subscription: viewer.subscription, readsWholeHistory }));
    await checkCanPostToChannel(sender, channel, viewer.subscribed, groups);
    await checkNewTopic(sender, channel, topic, groups);
    checkTopicPolicy(channel, topic, realm);
  } else {
    participants = await checkDirectMessage(sender, realm, dmRecipients, groups);
  }
  const widget = req.widgetContent === undefined ? undefined : checkWidgetContent(req.widgetContent);
  // 4. Rendering and mention permissions.
  const rendered = await renderContent(realm, content, channel ? topic : '', {
    groups,
    linkifiers: linkifiersRead,
    translateEmoticons: settingsOfUser(sender).translate_emoticons,
  });
  const subscribers = subscribersRead ? await subscribersRead : undefined;
  const recipientIds = subscribers ? subscribers.ids : participants.map((u) => u.id);
  if (channel && rendered.channelWildcardMentioned) checkCanMentionChannelWildcard(realm, groups, sender, recipientIds.length);
  let participantsOfTopic = new Set<number>();
  if (channel && rendered.topicWildcardMentioned) {
    participantsOfTopic = await topicParticipants(channel.id, topic);
    participantsOfTopic.add(sender.id);
    checkCanMentionTopicWildcard(realm, groups, sender, participantsOfTopic.size);
  }
  checkCanMentionGroups(groups, sender, rendered.mentionedGroupIds);
  const alerted = usersAlertedBy(content, await alertWordsRead);
  const send: CheckedSend = {
    channel,
    topic,
    participants,
    content,
    rendered,
    recipientIds,
    channelPushOn: subscribers?.pushOn ?? [],
    participantsOfTopic,
    topicFacts: topicFactsRead,
    readBy: (userId) => userId === sender.id && readBySender,
    req,
    widget,
    alerted,
  };
  return { groups, send };
};

/**
 * Writes and delivers a checked send (writeAndDeliver). `messageId`: the id to store it under, one
 * the caller allocated (a scheduled message's delivery, so that a retry finds what it wrote).
 */
export const sendCheckedMessage = async (
  realm: Realm,
  sender: User,
  checked: CheckedMessage,
  opts: { messageId?: number } = {},
): Promise<SendMessageResult> => writeAndDeliver(realm, sender, checked.groups, { ...checked.send, ...opts });

/** A checked send: what it goes to, what it says, who receives it and who has read it already. */
type CheckedSend = {
  channel: Channel | undefined;
  topic: string;
  /** Direct-message participants, the sender included (none for a channel message). */
  participants: User[];
  content: string;
  rendered: RenderedContent;
  recipientIds: number[];
  /** The subscribers whose subscription turns the channel's push notifications on (lib/actions/push/notifications.ts). */
  channelPushOn: number[];
  participantsOfTopic: Set<number>;
  /** What the automatic topic policies depend on (readSendTopicFacts); none for a system bot's notice. */
  topicFacts: Promise<SendTopicFacts | undefined> | undefined;
  readBy: (userId: number) => boolean;
  req: SendMessageRequest;
  /** The widget a send's widget_content gives the message (else the content's, if any). */
  widget?: Widget;
  /** The message's id when the caller allocated it (sendCheckedMessage). */
  messageId?: number;
  /** The users with an alert word in the message (lib/render/alert-words.ts): has_alert_word. */
  alerted: Set<number>;
};

/** The flags of each recipient, then one write (message, recipients record, summaries) and the delivery. Returns the id. */
const writeAndDeliver = async (realm: Realm, sender: User, groups: RealmGroups, send: CheckedSend): Promise<SendMessageResult> => {
  const { channel, topic, participants, content, rendered, recipientIds, participantsOfTopic, req } = send;
  // 5. Flags per recipient.
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) for (const id of recipientIds) if (groups.isMember(groupId, id)) mentioned.add(id);
  // Upstream's muted_sender_user_ids: the message arrives read for whoever muted its sender. They
  // are on the sender's own item, which the send already holds (docs/data-model.md, "Muted users").
  const muters = mutersOf(sender);
  const recipients: MessageRecipient[] = orderSenderFirst(recipientIds, sender.id).map((userId) => {
    const flags: string[] = [];
    if (send.readBy(userId) || muters.has(userId)) flags.push('read');
    if (mentioned.has(userId)) flags.push('mentioned');
    if (rendered.channelWildcardMentioned || (rendered.topicWildcardMentioned && participantsOfTopic.has(userId)))
      flags.push('wildcard_mentioned');
    if (send.alerted.has(userId)) flags.push('has_alert_word');
    return { userId, flags };
  });
  // 6. Write, then deliver.
  const id = send.messageId ?? (await messagesStore.allocateMessageId(realm.id));
  const message: Message = {
    id,
    realmId: realm.id,
    senderId: sender.id,
    streamId: channel ? channel.id : null,
    topic: channel ? topic : '',
    dmUserIds: channel ? [] : participants.map((u) => u.id),
    content,
    dateSent: nowSeconds(),
    renderedContent: rendered.html,
    topicLinks: rendered.topicLinks,
    sendingClient: req.client,
    hasLink: rendered.hasLink,
    hasImage: /<img /.test(rendered.html),
    isMeMessage: content.startsWith('/me '),
  };
  // Upstream's do_widget_post_save_actions: `/poll` and `/todo` give the message its widget, its
  // first submessage, stored on the message item so that it is there wherever the message is.
  const widget = send.widget ?? widgetOf(content);
  if (widget)
    message.widget = {
      id: await submessagesStore.allocateSubmessageId(realm.id),
      senderId: sender.id,
      msgType: 'widget',
      content: widgetSubmessageContent(widget),
    };
  // Upstream claims the uploads a message links when it is saved. Claimed before the message is
  // written, so that has_attachment is known: a failed write leaves claims that grant nothing the
  // sender could not already share (only readable uploads are claimed).
  const claimed = await claimAttachmentsForMessage({
    realmId: realm.id,
    sender,
    messageId: id,
    recipient: channel ? { kind: 'channel', channel } : { kind: 'direct', recipientIds: message.dmUserIds },
    content,
  });
  message.hasAttachment = claimed.length > 0;
  const sendTopic = await send.topicFacts;
  const delivery = { realm, sender, message, participants, channel, recipients, echo: { queueId: req.queueId, localId: req.localId } };
  const { duplicateOf } = await doWriteMessage(delivery);
  // A retry of a send already stored (same queue_id and local_id): that message, delivered by its own send.
  if (duplicateOf !== undefined) return { id: duplicateOf };
  const mentionedRecipients = rendered.mentionedUserIds.filter((userId) => recipientIds.includes(userId));
  const automatic = await doApplyAutomaticTopicPolicies(sendTopic, mentionedRecipients);
  await doDeliverMessage(delivery);
  await notifyAttachmentsClaimed(realm.id, claimed);
  await doStartPushNotifications(message, recipients, send.channelPushOn);
  await doStartOutgoingWebhooks(message, sender, rendered.mentionedUsers, participants);
  return { id, ...(automatic !== undefined ? { automatic_new_visibility_policy: automatic } : {}) };
};

/**
 * Where a notice goes: a topic of a channel, or one user's direct messages. `subscriberIds`: the
 * channel's subscribers when the caller has just written them (the subscriber index is eventually
 * consistent, so a channel created a moment ago may not be found in it yet).
 */
export type InternalMessageTarget = { channel: Channel; topic: string; subscriberIds?: number[] } | { user: User };

/**
 * A notice from a system bot (upstream's internal_send_* through do_send_messages): the bot may
 * post anywhere in the organization, so none of a user's send checks apply; the content is
 * rendered and delivered as any message. `markAsReadFor`: recipients who caused the notice and
 * have it read already (upstream's mark_as_read; 'all': everyone); `opts.messageId` as in
 * sendCheckedMessage. Writes the message; emits its `message` events.
 */
export const sendInternalMessage = async (
  realm: Realm,
  bot: User,
  target: InternalMessageTarget,
  content: string,
  markAsReadFor: number[] | 'all' = [],
  opts: { messageId?: number } = {},
): Promise<number> => {
  const groups = await RealmGroups.load(realm.id);
  const channel = 'channel' in target ? target.channel : undefined;
  const topic = 'channel' in target ? target.topic : '';
  const participants = 'user' in target ? [bot, target.user].sort((a, b) => a.id - b.id) : [];
  const text = normalizeMessageContent(content);
  const rendered = await renderContent(realm, text, topic, {
    groups,
    linkifiers: linkifiersStore.listLinkifiersOfRealm(realm.id),
    translateEmoticons: settingsOfUser(bot).translate_emoticons,
  });
  // Subscribers the caller has just written are all the channel's: their push settings are the defaults.
  const subscribers =
    'channel' in target
      ? target.subscriberIds
        ? { ids: target.subscriberIds, pushOn: [] }
        : await channelsStore.listSubscribersForSend(target.channel.id)
      : { ids: participants.map((u) => u.id), pushOn: [] };
  const alerted = usersAlertedBy(text, await userDataStore.getRealmAlertWords(realm.id));
  const client = 'Internal';
  const readBySender = defaultReadBySender(client);
  const { id } = await writeAndDeliver(realm, bot, groups, {
    channel,
    topic,
    participants,
    content: text,
    rendered,
    recipientIds: subscribers.ids,
    channelPushOn: subscribers.pushOn,
    participantsOfTopic: new Set(),
    topicFacts: undefined,
    alerted,
    readBy: (userId) => (userId === bot.id && readBySender) || markAsReadFor === 'all' || markAsReadFor.includes(userId),
    messageId: opts.messageId,
    req: {
      type: channel ? 'stream' : 'private',
      to: undefined,
      topic: undefined,
      content: text,
      client,
      readBySender,
      queueId: undefined,
      localId: undefined,
      forged: undefined,
      sender: undefined,
    },
  });
  return id;
};

/** Upstream's can_create_topic_group: a new topic needs the setting (unless role:everyone). */
export const checkNewTopic = async (sender: User, channel: Channel, topic: string, groups: RealmGroups): Promise<void> => {
  const setting = channel.groupSettings.can_create_topic_group;
  if (setting === undefined || setting === groups.systemGroup('role:everyone').id) return;
  const poster = sender.isBot && sender.botOwnerId !== null ? sender.botOwnerId : sender.id;
  if (groups.isInSetting(setting, poster)) return;
  if (await topicsStore.getTopicSummary(channel.id, topic)) return;
  throw new BadRequestError('You do not have permission to create new topics in this channel.');
};

/** The channel's effective topics policy on the empty topic (the realm's is allow_empty_topic). */
export const checkTopicPolicy = (channel: Channel, topic: string, realm: Realm): void => {
  const policy = channel.topicsPolicy === 'inherit' ? 'allow_empty_topic' : channel.topicsPolicy;
  const displayName = realm.emptyTopicDisplayName || EMPTY_TOPIC_FALLBACK_NAME;
  if (policy === 'disable_empty_topic' && topic === '') {
    throw new BadRequestError(`Sending messages to the ${displayName} is not allowed in this channel.`, {
      empty_topic_display_name: displayName,
    });
  }
  if (policy === 'empty_topic_only' && topic !== '') {
    throw new BadRequestError(`Only the ${displayName} topic is allowed in this channel.`, { empty_topic_display_name: displayName });
  }
};
