// The send's part of missed-message emails (upstream's maybe_enqueue_notifications for email):
// from what the send has in hand (each recipient's flags, the direct-message participants' own
// settings, the subscribers who follow some topic of the channel), who may be emailed; when
// nobody may, nothing more happens, and the send costs no DynamoDB request more. Otherwise the
// scheduledDelivery job's `missedEmailStart` run (enqueue.ts) decides for each of them, after the
// response, and schedules their batch's delivery check.
import type { RealmGroups } from '../../access/user-groups';
import type { Message, MessageRecipient } from '../../models/message';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import type { RenderedContent } from '../messages/render';
import { startJob } from '../../store/jobs';
import { log } from '../../log';

/** What the scheduledDelivery job's `missedEmailStart` run is given: the message and its candidates by reason. */
export type MissedEmailStartJob = {
  kind: 'missedEmailStart';
  realmId: number;
  messageId: number;
  direct: number[];
  /** Mentioned users, each with the group whose mention reached them (null: mentioned by name). */
  mentioned: [number, number | null][];
  wildcardMentioned: number[];
  /** Subscribers who follow some topic of the channel (the job reads whether they follow this one). */
  followers: number[];
};

/**
 * Hands the message to the `missedEmailStart` run when someone may be emailed about it: an unread
 * direct message to a participant whose enable_offline_email_notifications is on; a channel
 * message that mentions an unread recipient (by name, by group or with a wildcard), or whose
 * channel has unread subscribers who follow some of its topics. The sender is left out. Never
 * fails the send: a job that cannot be started is logged.
 */
export const doStartMissedMessageEmails = async (
  message: Message,
  recipients: MessageRecipient[],
  facts: {
    groups: RealmGroups;
    rendered: Pick<RenderedContent, 'mentionedUserIds' | 'mentionedGroupIds'>;
    followTopics: number[];
    participants: User[];
  },
): Promise<void> => {
  const job: MissedEmailStartJob = {
    kind: 'missedEmailStart',
    realmId: message.realmId,
    messageId: message.id,
    direct: [],
    mentioned: [],
    wildcardMentioned: [],
    followers: [],
  };
  const byName = new Set(facts.rendered.mentionedUserIds);
  const followers = new Set(facts.followTopics);
  const participantOf = new Map(facts.participants.map((u) => [u.id, u]));
  for (const { userId, flags } of recipients) {
    if (userId === message.senderId || flags.includes('read')) continue;
    if (message.streamId === null) {
      const user = participantOf.get(userId);
      if (user && !user.isBot && settingsOfUser(user).enable_offline_email_notifications) job.direct.push(userId);
      continue;
    }
    if (flags.includes('mentioned')) {
      const group = byName.has(userId) ? undefined : facts.rendered.mentionedGroupIds.find((g) => facts.groups.isMember(g, userId));
      job.mentioned.push([userId, group ?? null]);
    } else if (flags.includes('wildcard_mentioned')) job.wildcardMentioned.push(userId);
    else if (followers.has(userId)) job.followers.push(userId);
  }
  if (job.direct.length + job.mentioned.length + job.wildcardMentioned.length + job.followers.length === 0) return;
  try {
    await startJob('scheduledDelivery', job);
  } catch (error) {
    log.error('missed emails: job not started', { realmId: message.realmId, messageId: message.id, error: String(error) });
  }
};
