// End-to-end encrypted mobile push notifications of new messages, as upstream's self-hosted
// servers send them (zerver/lib/push_notifications.py): for a new direct message or mention, each
// device of an idle recipient gets the notification encrypted with the device's own key, which
// only the app can read. A send only hands the `push` job its message (job.ts), so its latency
// does not change, and a bouncer that is down fails the job, which is retried (Lambda: twice, a
// minute and two minutes later), as upstream retries its queue worker's events. Also the test
// notification (POST /mobile_push/e2ee/test_notification).
import { randomUUID } from 'node:crypto';
import { nowMs, nowSeconds } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config } from '../../config';
import { ApiError, ErrorCode } from '../../errors';
import { decodeUserIds, encodeUserIds } from '../../events/fanout';
import { avatarUrl } from '../../models/avatar';
import type { Subscription } from '../../models/channel';
import { MENTION_FLAGS, type Message, type MessageRecipient } from '../../models/message';
import { mutersOf } from '../../models/muted-user';
import {
  encryptPushPayload,
  messagePushPayload,
  pushContentOf,
  pushRequestFor,
  pushTriggerFor,
  type PushTrigger,
  type PushBase,
} from '../../models/push-notifications';
import { realmUrl } from '../../models/realm';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { VisibilityPolicy } from '../../models/user-topic';
import * as channelsStore from '../../store/channels';
import * as clientDevicesStore from '../../store/client-devices';
import * as queuesStore from '../../store/event-queues';
import { startJob } from '../../store/jobs';
import * as messagesStore from '../../store/messages';
import * as presenceStore from '../../store/presence';
import * as pushNotifiedStore from '../../store/push-notified';
import { BouncerRefusedError, sendToBouncer } from '../../store/push-bouncer';
import { listPushTokensOfUser } from '../../store/push-tokens';
import * as realmsStore from '../../store/realms';
import * as userTopicsStore from '../../store/user-topics';
import * as usersStore from '../../store/users';
import { doSendLegacyNotification } from './legacy';
import type { PushJob } from '../../models/push-job';
import { forHumans } from '../requiring';
import { backoff } from '../retry';
import { sendForRealm, sendTestToBouncer } from './bouncer';
import { pushServiceNotConfigured } from './registration';
import { log } from '../../log';

// ---------------------------------------------------------------------------------------------
// Notifications of new messages.

/**
 * Hands a new message to the `push` job when push is configured and someone may be notified of
 * it (upstream's rule: a direct message, a message that mentions them, by name, by group or with a
 * wildcard, or a channel message: whoever follows its topic or wants the channel's messages
 * pushed may be), with the recipients it mentions and those whose subscription turns the
 * channel's push notifications on (`channelPushOn`, from the send's read of the subscribers),
 * leaving out the sender and whoever has it read already. Only this hand-off runs in the send;
 * whether each recipient is notified (pushTriggerFor, whether they are idle, their devices), who
 * follows the topic and whose own setting wants channel messages the job decides. Never fails
 * the send: a job that cannot be started is logged.
 */
export const doStartPushNotifications = async (
  message: Message,
  recipients: MessageRecipient[],
  channelPushOn: number[],
): Promise<void> => {
  if (!config.pushBouncer()) return;
  const direct: number[] = [];
  const mentioned: number[] = [];
  const wildcardMentioned: number[] = [];
  const unread = new Set<number>();
  for (const { userId, flags } of recipients) {
    if (userId === message.senderId || flags.includes('read')) continue;
    unread.add(userId);
    if (message.streamId === null) direct.push(userId);
    else if (flags.includes('mentioned')) mentioned.push(userId);
    else if (flags.includes('wildcard_mentioned')) wildcardMentioned.push(userId);
  }
  // A channel message always goes to the job: whoever follows its topic may be notified.
  if (message.streamId === null && direct.length === 0) return;
  await startMessagePushJob(message, { direct, mentioned, wildcardMentioned, channelPush: channelPushOn.filter((id) => unread.has(id)) });
};

/**
 * Starts a message's `push` job with its recipients by reason (sorted and encoded as the job
 * carries them). Never throws: a job that cannot be started is logged, and the send or edit stands.
 */
const startMessagePushJob = async (
  message: Message,
  ids: { direct?: number[]; mentioned: number[]; wildcardMentioned: number[]; channelPush?: number[] },
  onlyMentions?: true,
): Promise<void> => {
  const sorted = (list: number[] = []) => encodeUserIds([...list].sort((a, b) => a - b));
  try {
    await startJob('push', {
      kind: 'message',
      jobId: randomUUID(),
      realmId: message.realmId,
      messageId: message.id,
      direct: sorted(ids.direct),
      mentioned: sorted(ids.mentioned),
      wildcardMentioned: sorted(ids.wildcardMentioned),
      ...(ids.channelPush ? { channelPush: sorted(ids.channelPush) } : {}),
      ...(onlyMentions ? { onlyMentions } : {}),
    } satisfies PushJob);
  } catch (error) {
    log.error('push: job not started', { realmId: message.realmId, messageId: message.id, error: String(error) });
  }
};

/**
 * Hands the `push` job the recipients a content edit newly mentions (upstream's
 * maybe_enqueue_notifications_for_message_update): of a channel message only (a direct message
 * was notified already), those whose row is unread and was not mentioned before the edit
 * (`before`, `after`: each row holder's flags), the sender left out. Never fails the edit.
 */
export const doStartPushNotificationsOfEdit = async (
  message: Message,
  before: Map<number, string[]>,
  after: Map<number, string[]>,
): Promise<void> => {
  if (!config.pushBouncer() || message.streamId === null) return;
  const mentioned: number[] = [];
  const wildcardMentioned: number[] = [];
  for (const [userId, flags] of after) {
    if (userId === message.senderId || flags.includes('read') || MENTION_FLAGS.some((f) => before.get(userId)?.includes(f))) continue;
    if (flags.includes('mentioned')) mentioned.push(userId);
    else if (flags.includes('wildcard_mentioned')) wildcardMentioned.push(userId);
  }
  if (mentioned.length === 0 && wildcardMentioned.length === 0) return;
  await startMessagePushJob(message, { mentioned, wildcardMentioned }, true);
};

/** Upstream's presence idle time: a user whose client reported activity within it is active. */
const PRESENCE_ACTIVE_SECONDS = 140;

/**
 * Whether a user is using a client now, so that a notification on their phone is not wanted
 * (upstream's rule: notified only when idle, i.e. without an event queue, or without activity
 * reported to presence in the last 140 seconds). Active = both.
 */
const isUserActive = async (user: User, now: number): Promise<boolean> => {
  const presence = await presenceStore.get(user.realmId, user.id);
  if (presence?.lastActiveTime === null || presence?.lastActiveTime === undefined) return false;
  if (presence.lastActiveTime < now / 1000 - PRESENCE_ACTIVE_SECONDS) return false;
  return queuesStore.hasLiveQueue(user.id, now);
};

/**
 * Who may be notified of a channel message for the channel's sake, besides whom it mentions
 * (upstream's get_recipient_info over the subscribers): the topic's policies (one query: followers,
 * and who muted or unmuted it), the organization's users whose own setting pushes channel
 * messages (one query of a sparse index), and the subscribers whose subscription does
 * (`channelPush`, from the send); then the subscriptions of them all and of the wildcard-mentioned
 * (batched reads), which pushTriggerFor weighs.
 */
const channelContextOf = async (
  message: Message,
  channelPush: number[] | 'mentions only',
  wildcardMentioned: number[],
): Promise<Map<number, { subscription: Subscription | undefined; policy: number }>> => {
  const [policies, withStreamPush] = await Promise.all([
    userTopicsStore.listPoliciesOfTopic(message.streamId!, message.topic),
    channelPush === 'mentions only' ? [] : usersStore.listIdsWithStreamPush(message.realmId),
  ]);
  const policyOf = new Map(policies.map((p) => [p.userId, p.visibilityPolicy as number]));
  const followers =
    channelPush === 'mentions only' ? [] : policies.filter((p) => p.visibilityPolicy === VisibilityPolicy.FOLLOWED).map((p) => p.userId);
  const candidates = [
    ...new Set([...followers, ...withStreamPush, ...(channelPush === 'mentions only' ? [] : channelPush), ...wildcardMentioned]),
  ].filter((id) => id !== message.senderId);
  const subscriptions = await channelsStore.getSubscriptionsOfUsers(message.streamId!, candidates);
  const subscriptionOf = new Map(subscriptions.map((sub) => [sub.userId, sub]));
  return new Map(
    candidates.map((id) => [id, { subscription: subscriptionOf.get(id), policy: policyOf.get(id) ?? VisibilityPolicy.INHERIT }]),
  );
};

/** A user's devices that the bouncer has a token of, with their keys. */
export const registeredDevicesOf = async (userId: number) =>
  (await clientDevicesStore.listClientDevicesOfUser(userId)).flatMap((d) => {
    const { key, keyId, tokenId, tokenKind } = d.push ?? {};
    return key !== undefined && keyId !== undefined && tokenId !== undefined && tokenKind !== undefined
      ? [{ deviceId: d.deviceId, key, keyId, tokenId, tokenKind }]
      : [];
  });

/** Recipients one run of the job notifies at once. */
export const NOTIFY_CONCURRENCY = 8;

/**
 * The `push` job's notifications of a new message (upstream's handle_push_notification): for each
 * recipient the send named and, of a channel message, each subscriber the channel's context names
 * (channelContextOf), a human with an active account whose settings want it (pushTriggerFor), who
 * has not read the message (a muted sender's message arrives read) nor been notified of it by an
 * earlier run, who is idle (isUserActive) and has devices registered with the bouncer, sends one
 * request to the bouncer (POST remotes/push/e2ee/notify) with the message's payload encrypted for
 * each device with its key; one who has legacy tokens also gets the legacy payloads
 * (doSendLegacyNotification, first: upstream sends both). The notification is recorded before it
 * is sent and forgotten if nothing was sent. Nothing when the message is gone. A bouncer that is
 * down, or a DynamoDB call that fails, fails the run after every recipient was tried, so that the
 * job is retried; the retry skips whoever an earlier run recorded, so nobody is notified twice
 * (one whose send failed and whose record could not be forgotten is not notified).
 */
/** Tries of the write that marks a notification sent, each with the SDK's own attempts. */
const MARK_SENT_TRIES = 5;

/**
 * Marks a notification the bouncer took as sent, trying harder than one call (with backoff): a
 * mark that fails leaves the claim unsent, and the job's next run would send it again.
 */
const markSentPatiently = async (userId: number, messageId: number): Promise<void> => {
  for (let n = 1; ; n += 1) {
    try {
      return await pushNotifiedStore.markPushSent(userId, messageId, nowSeconds());
    } catch (error) {
      if (n >= MARK_SENT_TRIES) throw error;
      await backoff(n + 3);
    }
  }
};

export const doSendMessageNotifications = async (job: Extract<PushJob, { kind: 'message' }>): Promise<void> => {
  if (!config.pushBouncer()) return;
  const message = await messagesStore.getMessage(job.realmId, job.messageId, { consistent: true });
  if (!message) return;
  const direct = new Set(decodeUserIds(job.direct));
  const mentioned = new Set(decodeUserIds(job.mentioned));
  const wildcardMentioned = decodeUserIds(job.wildcardMentioned);
  const inChannel =
    message.streamId === null
      ? undefined
      : await channelContextOf(message, job.onlyMentions ? 'mentions only' : decodeUserIds(job.channelPush ?? ''), wildcardMentioned);
  const candidates = new Set([...direct, ...mentioned, ...wildcardMentioned, ...(inChannel?.keys() ?? [])]);
  candidates.delete(message.senderId);
  if (candidates.size === 0) return;
  const [realm, channel, users] = await Promise.all([
    realmsStore.get(job.realmId),
    message.streamId === null ? undefined : channelsStore.getChannel(job.realmId, message.streamId),
    usersStore.getManyWithSystemBots(job.realmId, [message.senderId, ...candidates]),
  ]);
  const wildcard = new Set(wildcardMentioned);
  // Whoever muted the sender is never notified of their messages (upstream's sender_is_muted),
  // also of an edit of one they marked unread since.
  const muters = mutersOf(users.find((u) => u.id === message.senderId) ?? {});
  const triggers = new Map<number, PushTrigger>();
  for (const user of users) {
    if (!candidates.has(user.id) || !user.isActive || user.isBot || muters.has(user.id)) continue;
    const trigger = pushTriggerFor(
      settingsOfUser(user),
      { direct: direct.has(user.id), mentioned: mentioned.has(user.id), wildcardMentioned: wildcard.has(user.id) },
      inChannel && (inChannel.get(user.id) ?? { subscription: undefined, policy: VisibilityPolicy.INHERIT }),
    );
    if (job.onlyMentions ? trigger === 'mentioned' || trigger === 'wildcardMentioned' : trigger !== undefined)
      triggers.set(user.id, trigger!);
  }
  const wanting = users.filter((user) => triggers.has(user.id));
  if (wanting.length === 0) return;
  const wantingIds = wanting.map((u) => u.id);
  const jobId = job.jobId ?? randomUUID();
  const [rows, notified] = await Promise.all([
    messagesStore.getRowsOfMessage(message.id, wantingIds),
    pushNotifiedStore.listNotifiedOfMessage(message.id, wantingIds),
  ]);
  const read = new Set(rows.filter((row) => row.flags.includes('read')).map((row) => row.userId));
  const sender = users.find((u) => u.id === message.senderId);
  if (!realm || !sender) return;
  const url = realmUrl(realm);
  const senderAvatar = avatarUrl(sender);
  const pushMessage = {
    messageId: message.id,
    senderId: sender.id,
    senderFullName: sender.fullName,
    senderAvatarUrl: senderAvatar.startsWith('/') ? `${url}${senderAvatar}` : senderAvatar,
    time: message.dateSent,
    content: pushContentOf(message.renderedContent ?? ''),
    ...(channel ? { channelId: channel.id, channelName: channel.name, topic: message.topic } : { recipientUserIds: message.dmUserIds }),
  };
  const now = nowMs();
  const failures: unknown[] = [];
  await mapLimited(
    wanting.filter((u) => {
      const record = notified.get(u.id);
      return !read.has(u.id) && (record === undefined || (!record.sent && record.claimedBy === jobId));
    }),
    NOTIFY_CONCURRENCY,
    async (user) => {
      const [devices, legacyTokens] = await Promise.all([registeredDevicesOf(user.id), listPushTokensOfUser(user.id)]);
      if ((devices.length === 0 && legacyTokens.length === 0) || (await isUserActive(user, now))) return;
      // Claimed before anything is sent, marked sent after: a run of this job that failed before
      // the mark (a DynamoDB call, the bouncer) leaves a claim its next run takes over, and no
      // other job (an edit's) or later run sends the notification again.
      if (!(await pushNotifiedStore.claimPushNotification(user.id, message.id, jobId, nowSeconds()))) return;
      let sent = false;
      let failure: unknown;
      if (legacyTokens.length > 0)
        await doSendLegacyNotification({
          realm,
          user,
          sender,
          facts: pushMessage,
          html: message.renderedContent ?? '',
          trigger: triggers.get(user.id)!,
          tokens: legacyTokens,
        }).then(
          (delivered) => (sent ||= delivered),
          (error: unknown) => (failure = error),
        );
      if (devices.length > 0) {
        const base: PushBase = { realm_name: realm.name, realm_url: url, user_id: user.id };
        const payload = messagePushPayload(base, pushMessage);
        const pushRequests = devices.map((d) => pushRequestFor(d, encryptPushPayload(payload, d.key)));
        try {
          await sendForRealm(realm, (realmUuid) =>
            sendToBouncer('push/e2ee/notify', { json: { realm_uuid: realmUuid, push_requests: pushRequests } }),
          );
          sent = true;
        } catch (error) {
          // A refusal would be refused again: upstream logs it and drops the notification.
          if (error instanceof BouncerRefusedError)
            log.error('push: refused by the bouncer', { userId: user.id, messageId: message.id, code: error.code, refusal: error.message });
          else failure = error;
        }
      }
      if (sent) await markSentPatiently(user.id, message.id);
      else await pushNotifiedStore.releasePushClaim(user.id, message.id, jobId);
      if (failure !== undefined) failures.push(failure);
    },
  );
  if (failures.length > 0)
    throw new AggregateError(failures, `push notifications of message ${job.realmId}/${job.messageId}: the bouncer is unavailable`);
};

// ---------------------------------------------------------------------------------------------
// POST /mobile_push/e2ee/test_notification

/**
 * POST /mobile_push/e2ee/test_notification (upstream's send_e2ee_test_push_notification_api):
 * human users only; sends upstream's `test` payload to the caller's device `deviceId`, or to all
 * their devices registered with the bouncer ("No active registered push device" when there is
 * none), in the request (the app shows the outcome): a bouncer that cannot be reached answers 502
 * FAILED_TO_CONNECT_BOUNCER, one that fails 502 INTERNAL_SERVER_ERROR_ON_BOUNCER, one that refuses
 * this server 403 ADMIN_ACTION_REQUIRED, as upstream's. Writes nothing.
 */
export const checkSendTestNotification = forHumans(async (user: User, deviceId: number | undefined): Promise<void> => {
  if (!config.pushBouncer()) throw pushServiceNotConfigured();
  const devices = (await registeredDevicesOf(user.id)).filter((d) => deviceId === undefined || d.deviceId === deviceId);
  if (devices.length === 0) throw new ApiError('No active registered push device', { code: ErrorCode.NO_ACTIVE_PUSH_DEVICE });
  const realm = await realmsStore.get(user.realmId);
  if (!realm) throw new Error(`the organization ${user.realmId} of user ${user.id} is missing`);
  const payload = { realm_name: realm.name, realm_url: realmUrl(realm), user_id: user.id, time: nowSeconds(), type: 'test' };
  const pushRequests = devices.map((d) => pushRequestFor(d, encryptPushPayload(payload, d.key)));
  await sendTestToBouncer(realm, (realmUuid) => ['push/e2ee/notify', { json: { realm_uuid: realmUuid, push_requests: pushRequests } }]);
});
