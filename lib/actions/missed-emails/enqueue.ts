// The scheduledDelivery job's `missedEmailStart` run (upstream's missedmessage_emails queue's
// producer side): for each candidate the send named (start.ts), whether the message makes them
// notifiable by email now (emailTriggerFor, muting, offline: no live event queue, as upstream's
// receiver_is_off_zulip); each such one gets the message recorded pending and, unless their
// batch is open already, a batch whose delivery check (deliver.ts) is scheduled
// email_notifications_batching_period_seconds from now (lib/store/schedules.ts).
import { randomUUID } from 'node:crypto';
import { nowMs, nowSeconds } from '../../clock';
import { emailTriggerFor } from '../../models/missed-email';
import { mutersOf } from '../../models/muted-user';
import { settingsOfUser } from '../../models/user-settings';
import { VisibilityPolicy } from '../../models/user-topic';
import * as channelsStore from '../../store/channels';
import * as queuesStore from '../../store/event-queues';
import * as messagesStore from '../../store/messages';
import * as missedEmailsStore from '../../store/missed-emails';
import { putSchedule } from '../../store/schedules';
import * as userTopicsStore from '../../store/user-topics';
import * as usersStore from '../../store/users';
import type { MissedEmailStartJob } from './start';

/** What the scheduledDelivery job's `missedEmail` run is given: the user's batch. */
export type MissedEmailJob = { kind: 'missedEmail'; realmId: number; userId: number; batchId: string };

/** The one-time schedule's name of a user's batch (in the scheduler role's `scheduled-*`). */
const batchScheduleName = (job: MissedEmailJob): string => `scheduled-email-${job.realmId}-${job.userId}-${job.batchId}`;

/** Records the message pending for the user and opens their batch (scheduling its check) unless one is open. */
const addToBatch = async (p: missedEmailsStore.PendingMissedEmail, periodSeconds: number): Promise<void> => {
  const now = nowSeconds();
  const atSeconds = now + periodSeconds;
  await missedEmailsStore.putPendingMissedEmail(p, atSeconds);
  const job: MissedEmailJob = { kind: 'missedEmail', realmId: p.realmId, userId: p.userId, batchId: randomUUID() };
  if (!(await missedEmailsStore.openMissedEmailBatch(p.userId, job.batchId, atSeconds, now))) return;
  await putSchedule({ name: batchScheduleName(job), atSeconds, job: 'scheduledDelivery', payload: job });
};

/**
 * The `missedEmailStart` run: reads the candidates' accounts, of a channel message their
 * subscriptions and the topic's policies; leaves out bots, deactivated accounts, whoever muted
 * the sender, whoever has read the message and whoever is online; records the message for the
 * rest (addToBatch). Idempotent: a repeated run finds the pending message and the open batch.
 */
export const doStartMissedEmailBatches = async (job: MissedEmailStartJob): Promise<void> => {
  const message = await messagesStore.getMessage(job.realmId, job.messageId, { consistent: true });
  if (!message) return;
  const mentionedGroup = new Map(job.mentioned);
  const wildcard = new Set(job.wildcardMentioned);
  const direct = new Set(job.direct);
  const candidates = [...new Set([...job.direct, ...mentionedGroup.keys(), ...job.wildcardMentioned, ...job.followers])].filter(
    (id) => id !== message.senderId,
  );
  if (candidates.length === 0) return;
  const [users, policies, subscriptions, rows] = await Promise.all([
    usersStore.getManyWithSystemBots(job.realmId, [message.senderId, ...candidates]),
    message.streamId === null ? [] : userTopicsStore.listPoliciesOfTopic(message.streamId, message.topic),
    message.streamId === null ? [] : channelsStore.getSubscriptionsOfUsers(message.streamId, candidates),
    messagesStore.getRowsOfMessage(message.id, candidates),
  ]);
  const policyOf = new Map(policies.map((p) => [p.userId, p.visibilityPolicy as number]));
  const subscriptionOf = new Map(subscriptions.map((s) => [s.userId, s]));
  const unread = new Set(rows.filter((r) => !r.flags.includes('read')).map((r) => r.userId));
  const muters = mutersOf(users.find((u) => u.id === message.senderId) ?? {});
  const now = nowMs();
  for (const user of users) {
    if (user.id === message.senderId || !candidates.includes(user.id) || !user.isActive || user.isBot || muters.has(user.id)) continue;
    if (!unread.has(user.id)) continue;
    const settings = settingsOfUser(user);
    const trigger = emailTriggerFor(
      settings,
      { direct: direct.has(user.id), mentioned: mentionedGroup.has(user.id), wildcardMentioned: wildcard.has(user.id) },
      message.streamId === null
        ? undefined
        : { subscription: subscriptionOf.get(user.id), policy: policyOf.get(user.id) ?? VisibilityPolicy.INHERIT },
    );
    if (trigger === undefined || (await queuesStore.hasLiveQueue(user.id, now))) continue;
    const group = trigger === 'mentioned' ? mentionedGroup.get(user.id) : null;
    await addToBatch(
      { realmId: job.realmId, userId: user.id, messageId: message.id, trigger, ...(group != null ? { mentionedGroupId: group } : {}) },
      settings.email_notifications_batching_period_seconds,
    );
  }
};
