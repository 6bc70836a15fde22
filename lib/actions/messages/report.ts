// POST /messages/{message_id}/report: a user reports a message to the organization's moderators
// (upstream's zerver/views/message_report.py and zerver/lib/message_report.py). Notification Bot
// posts the report in the moderation request channel (PATCH /realm moderation_request_channel_id),
// in the topic "<sender> moderation", with the reported message quoted in a spoiler, then tells the
// reporter in a direct message.
import { accessMessage } from '../../access/messages';
import { BadRequestError } from '../../errors';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import { truncateMessageContent } from '../../models/message-content';
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_MESSAGE_TYPES, realmUrl, type Realm, type ReportMessageType } from '../../models/realm';
import { NOTIFICATION_BOT_EMAIL, type User } from '../../models/user';
import { messageLink, silentMention, topicLinkSyntax, unusedFence } from '../../render/message-links';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import { MAX_MESSAGE_LENGTH } from '../../models/message-content';
import { sendInternalMessage } from './send';

/** Upstream's MAX_REPORT_MESSAGE_SNIPPET_LENGTH: room left for the reporter's notes and the template. */
const MAX_REPORTED_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

/** Upstream's datetime_to_global_time: a `<time:…>` every reader sees in their own time zone. */
const globalTime = (unixSeconds: number): string => `<time:${new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

/** "A", "A and B", "A, B, and C" (upstream's list of a group conversation's other members). */
const listOf = (items: string[]): string =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;

/** The report as upstream words it: who reported whose message (and to whom, for a direct message), the reason and notes, the message. */
const reportContent = (
  reporter: User,
  sender: Pick<User, 'fullName' | 'id'>,
  message: Message,
  channel: Channel | undefined,
  others: Pick<User, 'fullName' | 'id'>[],
  reason: string,
  description: string,
  url: string,
): string => {
  const at = globalTime(message.dateSent);
  let recipients = '';
  if (!channel && message.dmUserIds.length > 2) recipients = ` to ${listOf(others.map(silentMention).sort())}`;
  else if (!channel && reporter.id === sender.id) recipients = ` to ${silentMention(others[0] ?? reporter)}`;
  const header = `${silentMention(reporter)} reported a message sent by ${silentMention(sender)}${recipients} at ${at}.`;
  const original = channel ? `Original message at ${topicLinkSyntax(channel, message.topic, message.id)}` : `[Original message](${url})`;
  const quoted = truncateMessageContent(message.content, MAX_REPORTED_SNIPPET_LENGTH);
  const fence = unusedFence(quoted);
  return `${header}\n\`\`\`quote\n**${reason}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${quoted}\n${fence}`;
};

export type ReportMessageRequest = { messageId: number; reportType: ReportMessageType; description: string };

/**
 * POST /messages/{message_id}/report, in upstream's order: the reason "other" needs a description
 * ("An explanation is required."); the organization must have a moderation request channel
 * ("Message reporting is not enabled in this organization."); the message must be one the caller
 * may read ("Invalid message(s)"). Then Notification Bot posts the report in that channel, in the
 * topic "<sender's name> moderation" (no topic when the channel allows only that), and sends the
 * reporter "You reported [a message](…) for <reason>.". Writes and emits only those two messages.
 */
export const checkReportMessage = async (realm: Realm, user: User, req: ReportMessageRequest): Promise<void> => {
  if (req.reportType === 'other' && req.description === '') throw new BadRequestError('An explanation is required.');
  const channelId = realm.moderationRequestChannelId;
  const moderation = channelId == null ? undefined : await channelsStore.getChannel(realm.id, channelId);
  if (!moderation) throw new BadRequestError('Message reporting is not enabled in this organization.');
  const { message, channel } = await accessMessage(user, req.messageId, { modifying: false });
  const bot = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!bot) throw new Error('Notification Bot is missing: message reports cannot be posted');
  const people = await usersStore.getManyWithSystemBots(realm.id, [...new Set([message.senderId, ...message.dmUserIds])]);
  const sender = people.find((u) => u.id === message.senderId) ?? { id: message.senderId, fullName: 'Unknown user' };
  const others = people.filter((u) => u.id !== message.senderId);
  const url = messageLink(realmUrl(realm), message, channel, user.id);
  const reason = REPORT_MESSAGE_TYPES.find((t) => t.key === req.reportType)!.name;
  const topic = moderation.topicsPolicy === 'empty_topic_only' ? '' : `${sender.fullName} moderation`;
  await sendInternalMessage(
    realm,
    bot,
    { channel: moderation, topic },
    reportContent(user, sender, message, channel, others, reason, req.description, url),
  );
  await sendInternalMessage(realm, bot, { user }, `You reported [a message](${url}) for ${reason.toLowerCase()}.`);
};
