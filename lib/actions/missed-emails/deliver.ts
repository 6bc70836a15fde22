// The scheduledDelivery job's `missedEmail` run, at the end of a user's batching period (upstream's
// handle_missedmessage_emails): the user's pending messages still unread, and still wanted by
// their settings, become ONE email per conversation (a direct-message conversation, or a channel's
// topic), sent through SES with upstream's subject and layout. A run claims each message before
// its email is sent (claimPendingMissedEmail), so a retried or repeated run never sends it twice;
// an email SES did not take gives its claims back and fails the run, which is retried.
import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../../clock';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import {
  missedEmailBodies,
  missedEmailSubject,
  triggerStillWanted,
  type EmailConversation,
  type EmailMessage,
  type MissedEmailFacts,
} from '../../models/missed-email';
import { realmProperty, realmUrl, type Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { conversationLink } from '../../render/message-links';
import * as channelsStore from '../../store/channels';
import { sendEmail } from '../../store/emails';
import { messagePartitions, queryPartitionPage } from '../../store/message-queries';
import * as messagesStore from '../../store/messages';
import * as missedEmailsStore from '../../store/missed-emails';
import * as realmsStore from '../../store/realms';
import * as userGroupsStore from '../../store/user-groups';
import * as usersStore from '../../store/users';
import type { MissedEmailJob } from './enqueue';
import { replyAddressOf } from './reply-by-email';
import { log } from '../../log';

/** Upstream's get_context_for_message: up to 5 earlier messages of the topic, sent within 15 minutes before. */
const CONTEXT_MESSAGES = 5;
const CONTEXT_SECONDS = 15 * 60;

/** Upstream's buckets: a channel's topic (case-insensitive), or a direct-message conversation. */
const conversationKey = (m: Message): string =>
  m.streamId === null ? `dm:${m.dmUserIds.join(',')}` : `${m.streamId}:${m.topic.toLowerCase()}`;

/** The earlier messages of the topic that give the first missed one its context, that the user has (their rows). */
const contextOf = async (user: User, first: Message): Promise<Message[]> => {
  if (first.streamId === null) return [];
  const page = await queryPartitionPage(messagePartitions.topic(first.streamId, first.topic), {
    direction: 'older',
    from: first.id,
    inclusive: false,
    limit: CONTEXT_MESSAGES,
  });
  const ids = page.items.map((item) => Number(item.id));
  if (ids.length === 0) return [];
  const [messages, rows] = await Promise.all([
    messagesStore.getMessagesByIds(user.realmId, ids),
    messagesStore.getUserMessagesByIds(user.id, ids),
  ]);
  const held = new Set(rows.map((r) => r.messageId));
  return messages.filter((m) => held.has(m.id) && m.dateSent > first.dateSent - CONTEXT_SECONDS);
};

/** Sends one conversation's email of claimed messages (and their context); throws when SES did not take it. */
const sendConversationEmail = async (
  realm: Realm,
  user: User,
  missed: { message: Message; pending: missedEmailsStore.PendingMissedEmail }[],
): Promise<void> => {
  const first = missed[0].message;
  const context = await contextOf(user, first);
  const all = [...context, ...missed.map((m) => m.message)].sort((a, b) => a.id - b.id);
  const [people, channel, groupName] = await Promise.all([
    usersStore.getManyWithSystemBots(realm.id, [...new Set([...all.map((m) => m.senderId), ...first.dmUserIds])]),
    first.streamId === null ? undefined : channelsStore.getChannel(realm.id, first.streamId),
    mentionedGroupName(
      realm.id,
      missed.map((m) => m.pending),
    ),
  ]);
  const nameOf = new Map(people.map((u) => [u.id, u.fullName]));
  const triggers = missed.map((m) => m.pending.trigger);
  const mentions = missed.filter((m) => m.pending.trigger === 'mentioned' || m.pending.trigger === 'wildcardMentioned');
  const senderNames = [...new Set((mentions.length > 0 ? mentions : missed).map((m) => nameOf.get(m.message.senderId) ?? ''))];
  const conversation: EmailConversation = channel
    ? { kind: 'channel', channelName: channel.name, topic: first.topic }
    : first.dmUserIds.length <= 2
      ? { kind: 'direct', senderName: nameOf.get(first.senderId) ?? '' }
      : { kind: 'group', otherNames: first.dmUserIds.filter((id) => id !== user.id).map((id) => nameOf.get(id) ?? '') };
  const settings = settingsOfUser(user);
  const byRealm = !realmProperty(realm, 'message_content_allowed_in_email_notifications');
  const byUser = !settings.message_content_in_email_notifications;
  const url = realmUrl(realm);
  const token = await missedEmailsStore.createUnsubscribeToken(realm.id, user.id, 'missed_messages');
  const content: MissedEmailFacts['content'] = byRealm || byUser ? { allowed: false, byRealm, byUser } : { allowed: true };
  const replyTo = content.allowed ? await replyAddressOf(user, first) : undefined;
  const facts: MissedEmailFacts = {
    conversation,
    messages: all.map((m): EmailMessage => ({
      id: m.id,
      senderName: nameOf.get(m.senderId) ?? '',
      content: m.content,
      html: m.renderedContent ?? '',
    })),
    senderNames,
    triggers,
    mentionedGroupName: groupName,
    realmName: realm.name,
    realmUrl: url,
    narrowUrl: conversationLink(url, first, channel as Channel | undefined, user.id),
    unsubscribeUrl: `${url}/accounts/unsubscribe/missed_messages/${token}`,
    replyTo,
    content,
    realmNameInSubject: settings.realm_name_in_email_notifications_policy === 2,
  };
  await sendEmail({
    to: [user.email],
    fromName: 'Zulip notifications',
    ...(replyTo ? { replyTo: [replyTo] } : {}),
    subject: missedEmailSubject(facts),
    ...missedEmailBodies(facts),
  });
};

/** The group named in the email: when every mention in it was of one group. */
const mentionedGroupName = async (realmId: number, pending: missedEmailsStore.PendingMissedEmail[]): Promise<string | undefined> => {
  const mentions = pending.filter((p) => p.trigger === 'mentioned');
  const groups = new Set(mentions.map((p) => p.mentionedGroupId));
  if (mentions.length === 0 || groups.size !== 1 || groups.has(undefined)) return undefined;
  return (await userGroupsStore.getGroup(realmId, [...groups][0]!))?.name;
};

/**
 * The `missedEmail` run of a user's batch: closes the batch (the next message opens another),
 * then for each conversation of the pending messages that are unread, not deleted and still
 * wanted (triggerStillWanted), claims them and sends one email (sendConversationEmail), oldest
 * conversation first; then forgets what it sent and what is no longer to be sent. Nothing for a
 * deactivated user or organization.
 */
export const doSendMissedEmails = async (job: MissedEmailJob): Promise<void> => {
  await missedEmailsStore.closeMissedEmailBatch(job.userId, job.batchId);
  const pending = (await missedEmailsStore.listPendingMissedEmails(job.userId)).filter((p) => p.claimedBy === undefined);
  if (pending.length === 0) return;
  const [realm, user] = await Promise.all([realmsStore.get(job.realmId), usersStore.get(job.realmId, job.userId, { consistent: true })]);
  const ids = pending.map((p) => p.messageId);
  if (!realm || realm.deactivated || !user || !user.isActive) return missedEmailsStore.deletePendingMissedEmails(job.userId, ids);
  const settings = settingsOfUser(user);
  const [messages, rows] = await Promise.all([
    messagesStore.getMessagesByIds(realm.id, ids),
    messagesStore.getUserMessagesByIds(user.id, ids),
  ]);
  const messageOf = new Map(messages.map((m) => [m.id, m]));
  const unread = new Set(rows.filter((r) => !r.flags.includes('read')).map((r) => r.messageId));
  const byConversation = new Map<string, { message: Message; pending: missedEmailsStore.PendingMissedEmail }[]>();
  const dropped: number[] = [];
  for (const p of pending) {
    const message = messageOf.get(p.messageId);
    if (!message || !unread.has(p.messageId) || !triggerStillWanted(settings, p.trigger)) {
      dropped.push(p.messageId);
      continue;
    }
    const key = conversationKey(message);
    byConversation.set(key, [...(byConversation.get(key) ?? []), { message, pending: p }]);
  }
  await missedEmailsStore.deletePendingMissedEmails(job.userId, dropped);
  const runId = randomUUID();
  const conversations = [...byConversation.values()].sort((a, b) => a[a.length - 1].message.id - b[b.length - 1].message.id);
  for (const missed of conversations) {
    const claimed = [];
    for (const m of missed) if (await missedEmailsStore.claimPendingMissedEmail(job.userId, m.message.id, runId)) claimed.push(m);
    if (claimed.length === 0) continue;
    const claimedIds = claimed.map((m) => m.message.id);
    try {
      await sendConversationEmail(realm, user, claimed);
    } catch (error) {
      await missedEmailsStore.releasePendingMissedEmails(job.userId, claimedIds, runId);
      throw error;
    }
    log.info('missed-message email sent', { realmId: realm.id, userId: user.id, messageIds: claimedIds, at: nowSeconds() });
    await missedEmailsStore.deletePendingMissedEmails(job.userId, claimedIds);
  }
};
