// Notification Bot's notices about new channels and subscriptions (upstream's
// send_messages_for_new_subscribers in zerver/views/streams.py), with upstream's exact texts:
// a direct message to each user someone else subscribed to existing channels, the announcement
// of new channels in the organization's new-channel announcements channel (when asked to
// announce), and the first message of each new channel in its "channel events" topic. They go
// out through the one send path (sendInternalMessage), in upstream's order, after the
// subscription events.
import type { Channel } from '../../models/channel';
import { realmUrl, type Realm } from '../../models/realm';
import { NOTIFICATION_BOT_EMAIL, type User } from '../../models/user';
import { channelSlug, encodeHashComponent } from '../../render/inline';
import { channelLinkSyntax, silentMention, topicLinkSyntax } from '../../render/message-links';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import { sendInternalMessage, type InternalMessageTarget } from '../messages/send';
import { log } from '../../log';

/** Upstream's you_were_just_subscribed_message. */
const youWereSubscribedMessage = (actingUser: User, channelNames: string[]): string => {
  const names = [...channelNames].sort();
  if (names.length === 1) return `${silentMention(actingUser)} subscribed you to #**${names[0]}**.`;
  return `${silentMention(actingUser)} subscribed you to the following channels:\n\n${names.map((n) => `* #**${n}**\n`).join('')}`;
};

/** The announcement of new channels in the new-channel announcements channel, and its topic. */
const NEW_CHANNELS_TOPIC = 'new channels';
const newChannelsAnnouncement = (actingUser: User, created: Pick<Channel, 'id' | 'name'>[]): string => {
  const links = created.map(channelLinkSyntax).join(', ');
  return created.length > 1
    ? `${silentMention(actingUser)} created the following channels: ${links}.`
    : `${silentMention(actingUser)} created a new channel ${links}.`;
};

/** Upstream's Realm.STREAM_EVENTS_NOTIFICATION_TOPIC_NAME. */
const CHANNEL_EVENTS_TOPIC = 'channel events';

/** The first message of a new channel: its kind, its creator and its description, quoted. */
const newChannelMessage = (
  creator: User,
  channel: Pick<Channel, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic' | 'description'>,
): string => {
  const kind = channel.isWebPublic
    ? '**Web-public**'
    : !channel.inviteOnly
      ? '**Public**'
      : channel.historyPublicToSubscribers
        ? '**Private, shared history**'
        : '**Private, protected history**';
  const description = channel.description === '' ? '*No description.*' : channel.description;
  return `${kind} channel created by ${silentMention(creator)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
};

export type NewSubscriptionNotices = {
  actingUser: User;
  /** Each newly subscribed user with the names of the channels they were subscribed to, in order. */
  subscribed: { user: User; channelNames: string[] }[];
  created: Channel[];
  announce: boolean;
  /** Whether the users subscribed by someone else get a direct message (send_new_subscription_messages and the bulk limit). */
  directMessages: boolean;
};

/**
 * Sends Notification Bot's notices for a subscription request, as upstream does after it
 * subscribed: a direct message to each non-bot user other than the acting one who was
 * subscribed to channels not created by this request (when `directMessages`); with `announce`
 * and new channels, the announcement in the organization's new-channel announcements channel
 * (when it has one that is not archived); and the first message of each new channel. The
 * acting user has them read already. Writes the messages; emits their `message` events.
 */
export const sendNewSubscriptionNotices = async (realm: Realm, n: NewSubscriptionNotices): Promise<void> => {
  const createdNames = new Set(n.created.map((c) => c.name));
  const notices: { target: InternalMessageTarget; content: string }[] = [];
  if (n.directMessages) {
    for (const { user, channelNames } of n.subscribed) {
      if (user.id === n.actingUser.id || user.isBot) continue;
      const names = channelNames.filter((name) => !createdNames.has(name));
      if (names.length > 0) notices.push({ target: { user }, content: youWereSubscribedMessage(n.actingUser, names) });
    }
  }
  if (n.announce && n.created.length > 0 && realm.newStreamAnnouncementsStreamId != null) {
    const channel = await channelsStore.getChannel(realm.id, realm.newStreamAnnouncementsStreamId);
    if (channel && !channel.isArchived) {
      notices.push({ target: { channel, topic: NEW_CHANNELS_TOPIC }, content: newChannelsAnnouncement(n.actingUser, n.created) });
    }
  }
  for (const channel of n.created) {
    // A new channel's subscribers are the ones this request just wrote.
    const subscriberIds = n.subscribed
      .filter((s) => s.channelNames.includes(channel.name))
      .map((s) => s.user.id)
      .sort((a, b) => a - b);
    notices.push({ target: { channel, topic: CHANNEL_EVENTS_TOPIC, subscriberIds }, content: newChannelMessage(n.actingUser, channel) });
  }
  if (notices.length === 0) return;
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) {
    // A deployment without the system bots (they come with the seed) cannot post notices; the
    // subscriptions themselves stand.
    log.warn('Notification Bot missing: notices not sent', { notices: notices.length });
    return;
  }
  for (const { target, content } of notices) await sendInternalMessage(realm, bot, target, content, [n.actingUser.id]);
};

export type MessagesMovedNotices = {
  actingUser: User;
  /** The first moved message (the one the request named), for the link to it. */
  messageId: number;
  from: { channel: Channel; topic: string };
  to: { channel: Channel; topic: string };
  movedCount: number;
  /** Whether every message of the old topic the mover could see moved (upstream's moved_all_visible_messages). */
  movedAll: boolean;
  /** Whether the new topic had messages the mover could see before. */
  newTopicHadMessages: boolean;
  /** Whether to post in the new topic (send_notification_to_new_thread, and not a plain resolve or unresolve). */
  toNewTopic: boolean;
  /** send_notification_to_old_thread. */
  toOldTopic: boolean;
};

/**
 * Notification Bot's breadcrumbs of a move (upstream's send_message_moved_breadcrumbs), in its
 * order and with its texts: in the new topic, "This topic was moved here from …" (the whole topic
 * into one without messages), a link to the one moved message, or the count; then in the old
 * topic, "This topic was moved to …", "A message was moved …" or the count. The mover has them
 * read. Writes the messages; emits their `message` events.
 */
export const sendMessagesMovedNotices = async (realm: Realm, n: MessagesMovedNotices): Promise<void> => {
  if (!n.toNewTopic && !n.toOldTopic) return;
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) {
    log.warn('Notification Bot missing: move notices not sent');
    return;
  }
  const user = silentMention(n.actingUser);
  const oldLocation = topicLinkSyntax(n.from.channel, n.from.topic);
  const newLocation = topicLinkSyntax(n.to.channel, n.to.topic);
  if (n.toNewTopic) {
    const link = `${realmUrl(realm)}/#narrow/channel/${channelSlug(n.to.channel)}/topic/${encodeHashComponent(n.to.topic)}/near/${n.messageId}`;
    const content =
      n.movedAll && !n.newTopicHadMessages
        ? `This topic was moved here from ${oldLocation} by ${user}.`
        : n.movedCount === 1
          ? `[A message](${link}) was moved here from ${oldLocation} by ${user}.`
          : `${n.movedCount} messages were moved here from ${oldLocation} by ${user}.`;
    await sendInternalMessage(realm, bot, { channel: n.to.channel, topic: n.to.topic }, content, [n.actingUser.id]);
  }
  if (n.toOldTopic) {
    const content = n.movedAll
      ? `This topic was moved to ${newLocation} by ${user}.`
      : n.movedCount === 1
        ? `A message was moved from this topic to ${newLocation} by ${user}.`
        : `${n.movedCount} messages were moved from this topic to ${newLocation} by ${user}.`;
    await sendInternalMessage(realm, bot, { channel: n.from.channel, topic: n.from.topic }, content, [n.actingUser.id]);
  }
};

// ---------------------------------------------------------------------------------------------
// Channel administration (upstream's zerver/actions/streams.py): Notification Bot's notices in
// the channel's "channel events" topic when an administrator changes it.

/** Upstream's get_stream_permission_policy_name. */
const permissionPolicyName = (c: Pick<Channel, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic'>): string =>
  c.isWebPublic
    ? 'Web-public'
    : !c.inviteOnly
      ? c.historyPublicToSubscribers
        ? 'Public'
        : 'Public, protected history'
      : c.historyPublicToSubscribers
        ? 'Private, shared history'
        : 'Private, protected history';

/** Upstream's do_rename_stream notice. */
export const renameNotice = (actingUser: User, oldName: string, newName: string): string =>
  `${silentMention(actingUser)} renamed channel **${oldName}** to **${newName}**.`;

/** Upstream's send_change_stream_description_notification. */
export const descriptionNotice = (actingUser: User, oldDescription: string, newDescription: string): string => {
  const shown = (d: string) => (d === '' ? '*No description.*' : d);
  return (
    `${silentMention(actingUser)} changed the description for this channel.\n\n` +
    `* **Old description:**\n\`\`\`\` quote\n${shown(oldDescription)}\n\`\`\`\`\n` +
    `* **New description:**\n\`\`\`\` quote\n${shown(newDescription)}\n\`\`\`\``
  );
};

/** Upstream's send_change_stream_permission_notification. */
export const permissionNotice = (
  actingUser: User,
  before: Pick<Channel, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic'>,
  after: Pick<Channel, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic'>,
): string =>
  `${silentMention(actingUser)} changed the [access permissions](/help/channel-permissions) for this channel from ` +
  `**${permissionPolicyName(before)}** to **${permissionPolicyName(after)}**.`;

/**
 * Upstream's send_stream_posting_permission_update_notification; `oldWho` and `newWho` are
 * upstream's get_users_string_with_permission (silent mentions of the groups, then the users).
 */
export const postingPermissionNotice = (actingUser: User, oldWho: string, newWho: string): string =>
  `${silentMention(actingUser)} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
  `* **Old**: ${oldWho}\n* **New**: ${newWho}\n`;

/** Silent mentions of the groups (by id) and then the users (by id) of a permission, as upstream lists them. */
export const permissionHolders = (groups: { id: number; name: string }[], users: User[]): string =>
  [
    ...[...groups].sort((a, b) => a.id - b.id).map((g) => `@_*${g.name}*`),
    ...[...users].sort((a, b) => a.id - b.id).map(silentMention),
  ].join(', ');

/**
 * Upstream's send_change_stream_message_retention_days_notification: `null` is the
 * organization's policy (`realmDays`), -1 forever.
 */
export const retentionNotice = (actingUser: User, oldValue: number | null, newValue: number | null, realmDays: number): string => {
  const oldDays = oldValue ?? realmDays;
  const newDays = newValue ?? realmDays;
  const period = (days: number) => (days === -1 ? 'Forever' : `${days} days`);
  const summary =
    newDays === -1
      ? 'Messages in this channel will now be retained forever.'
      : `Messages in this channel will now be automatically deleted ${newDays} days after they are sent.`;
  return (
    `${silentMention(actingUser)} has changed the [message retention period](/help/message-retention-policy) for this channel:\n` +
    `* **Old retention period**: ${period(oldDays)}\n* **New retention period**: ${period(newDays)}\n\n${summary}`
  );
};

/** Upstream's do_deactivate_stream notice. */
export const archivedNotice = (channel: Pick<Channel, 'name'>): string => `Channel ${channel.name} has been archived.`;

/** Upstream's do_unarchive_stream notice. */
export const unarchivedNotice = (channel: Pick<Channel, 'name'>): string => `Channel ${channel.name} un-archived.`;

/**
 * Posts Notification Bot's notices in a channel's "channel events" topic, in order, to its
 * subscribers. `readByAll`: nobody gets them unread (upstream's limit_unread_user_ids=set(), for
 * the notice of an archived channel). Writes the messages; emits their `message` events.
 */
export const sendChannelEventsNotices = async (
  realm: Realm,
  channel: Channel,
  contents: string[],
  opts: { readByAll?: boolean } = {},
): Promise<void> => {
  if (contents.length === 0) return;
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) {
    log.warn('Notification Bot missing: notices not sent', { notices: contents.length });
    return;
  }
  for (const content of contents) {
    await sendInternalMessage(realm, bot, { channel, topic: CHANNEL_EVENTS_TOPIC }, content, opts.readByAll ? 'all' : []);
  }
};
