// End-to-end encrypted mobile push notifications through the push bouncer, as upstream's
// self-hosted servers send them (zerver/lib/push_notifications.py, push_registration.py,
// remote_server.py): this server registers itself and its organizations with the bouncer, forwards
// each device's registration to it, and for a new direct message or mention sends each device of
// an idle recipient the notification encrypted with the device's own key, which only the app can
// read. The bouncer (PUSH_BOUNCER_URL, ZULIP_ORG_ID, ZULIP_ORG_KEY) is configuration; without it
// POST /mobile_push/register answers PUSH_SERVICE_NOT_CONFIGURED and nothing is sent.
//
// Everything that talks to the bouncer runs in the `push` job (lib/store/jobs.ts), never in a
// request: a send only hands the job its message (and only a direct message or a mention does),
// so its latency does not change, and a bouncer that is down fails the job, which is retried
// (Lambda: twice, a minute and two minutes later), as upstream retries its queue worker's events.
import { randomUUID } from 'node:crypto';
import { nowMs, nowSeconds } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config, SERVICE_VERSION } from '../../config';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { decodeUserIds, encodeUserIds } from '../../events/fanout';
import { sendEvent } from '../../events/send';
import { avatarUrl } from '../../models/avatar';
import type { Subscription } from '../../models/channel';
import type { ClientDevice, DevicePush } from '../../models/client-device';
import type { DeviceEvent } from '../../models/event';
import { MENTION_FLAGS, type Message, type MessageRecipient } from '../../models/message';
import { mutersOf } from '../../models/muted-user';
import {
  canonicalTokenId,
  encryptPushPayload,
  messagePushPayload,
  parsePushKey,
  removePushPayload,
  pushContentOf,
  pushRequestFor,
  pushTriggerFor,
  type PushTrigger,
  realmPushIdentity,
  type PushBase,
} from '../../models/push-notifications';
import { realmUrl, type Realm } from '../../models/realm';
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
import { BouncerRefusedError, BouncerRetryLaterError, sendToBouncer, type BouncerBody } from '../../store/push-bouncer';
import { listPushTokensOfUser } from '../../store/push-tokens';
import * as realmsStore from '../../store/realms';
import * as userTopicsStore from '../../store/user-topics';
import * as usersStore from '../../store/users';
import { doLegacyTokenJob, doRemoveLegacyNotifications, doSendLegacyNotification, type LegacyTokenJob } from './legacy';
import { forHumans } from '../requiring';
import { backoff, LostRaceError, retryLostRaces } from '../retry';

// ---------------------------------------------------------------------------------------------
// Registering this server and its organizations with the bouncer.

/**
 * Registers this server with the bouncer (upstream's `manage.py register_server`: POST
 * remotes/server/register with its id and key, which the bouncer accepts again for the same
 * pair), then uploads the organizations (upstream's send_server_data_to_push_bouncer: POST
 * remotes/server/analytics with each organization's uuid; no usage statistics). Throws the
 * bouncer's refusal (a wrong key for a registered id: INVALID_ZULIP_SERVER).
 */
export const doRegisterServerWithBouncer = async (realms: Realm[]): Promise<void> => {
  const bouncer = config.pushBouncer();
  if (!bouncer) throw new Error('the push notification service is not configured (PUSH_BOUNCER_URL, ZULIP_ORG_ID, ZULIP_ORG_KEY)');
  await sendToBouncer('server/register', {
    form: {
      zulip_org_id: bouncer.orgId,
      zulip_org_key: bouncer.orgKey,
      hostname: new URL(config.externalUrl()).host,
      contact_email: config.pushContactEmail(),
    },
  });
  await sendToBouncer('server/analytics', {
    form: {
      realm_counts: '[]',
      installation_counts: '[]',
      realmauditlog_rows: '[]',
      realms: JSON.stringify(
        realms.map((realm) => {
          const identity = realmPushIdentity(realm.id, bouncer);
          return {
            id: realm.id,
            host: new URL(realmUrl(realm)).host,
            url: realmUrl(realm),
            name: realm.name,
            org_type: 0,
            date_created: realm.dateCreated,
            deactivated: realm.deactivated,
            is_system_bot_realm: false,
            authentication_methods: {},
            uuid: identity.uuid,
            uuid_owner_secret: identity.uuidOwnerSecret,
          };
        }),
      ),
      version: JSON.stringify(SERVICE_VERSION.version),
      merge_base: JSON.stringify(''),
      api_feature_level: JSON.stringify(SERVICE_VERSION.featureLevel),
    },
  });
};

/**
 * Sends a request about one organization; when the bouncer does not know this server or the
 * organization yet (INVALID_ZULIP_SERVER, MISSING_REMOTE_REALM), registers them (upstream makes
 * an administrator run register_server; here the first use does it) and sends it once more.
 */
export const sendForRealm = async (realm: Realm, send: (realmUuid: string) => Promise<unknown>): Promise<void> => {
  const bouncer = config.pushBouncer()!;
  const { uuid } = realmPushIdentity(realm.id, bouncer);
  try {
    await send(uuid);
  } catch (error) {
    if (!(error instanceof BouncerRefusedError) || (error.code !== 'MISSING_REMOTE_REALM' && error.code !== 'INVALID_ZULIP_SERVER'))
      throw error;
    await doRegisterServerWithBouncer([realm]);
    await send(uuid);
  }
};

// ---------------------------------------------------------------------------------------------
// POST /mobile_push/register

/** What POST /mobile_push/register was given besides the device (each optional: see checkRegisterPushDevice). */
export type PushRegistrationParams = {
  pushKey?: string;
  pushKeyId?: number;
  tokenKind?: 'fcm' | 'apns';
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
};

/** The `push` job's work: forward a device's registration, or send a message's notifications. */
export type PushJob =
  | {
      kind: 'register';
      realmId: number;
      userId: number;
      deviceId: number;
      tokenId: string;
      bouncerPublicKey: string;
      encryptedPushRegistration: string;
    }
  | {
      kind: 'message';
      realmId: number;
      messageId: number;
      /** Recipients by why they may be notified (lib/events/fanout.ts encodeUserIds, sorted). */
      direct: string;
      mentioned: string;
      wildcardMentioned: string;
      /** Subscribers whose subscription turns the channel's push notifications on (absent in jobs started before it existed). */
      channelPush?: string;
      /** An edit's new mentions: only those named are notified, and only of the mention. */
      onlyMentions?: boolean;
      /** The job's own id, the same in each of its runs (claimPushNotification); absent in jobs started before it. */
      jobId?: string;
    }
  | { kind: 'remove'; realmId: number; userId: number; messageIds: number[] }
  /** A deleted message: its notifications on the phones of whichever of `userIds` (encodeUserIds) were notified. */
  | { kind: 'removeDeleted'; realmId: number; messageId: number; userIds: string }
  | LegacyTokenJob;

/**
 * How long a registration counts as on its way to the bouncer: past the push job's attempts (Lambda
 * retries a failed run after about 1 and 2 more minutes, each run up to 60 s).
 */
const PENDING_REGISTRATION_SECONDS = 10 * 60;

const pushServiceNotConfigured = () =>
  new ApiError('Server is not configured to use push notification service.', { code: ErrorCode.PUSH_SERVICE_NOT_CONFIGURED });

const checkPushKey = (pushKey: string): string => {
  const bytes = parsePushKey(pushKey);
  if (!bytes) throw new BadRequestError('Invalid `push_key`');
  return bytes.toString('base64');
};

const checkTokenId = (tokenId: string): string => {
  const canonical = canonicalTokenId(tokenId);
  if (canonical === undefined) throw new BadRequestError('`token_id` is not Base64 encoded');
  return canonical;
};

/** Writes a device's new push registration and tells the owner's clients what changed. */
const writeDevicePush = async (
  user: User,
  device: ClientDevice,
  next: DevicePush,
  changed: Omit<Extract<DeviceEvent, { op: 'update' }>, 'type' | 'op' | 'device_id'>,
): Promise<boolean> => {
  if (!(await clientDevicesStore.updateDevicePush(device, next))) return false;
  await sendEvent(user.realmId, { type: 'device', op: 'update', device_id: device.deviceId, ...changed } satisfies DeviceEvent, {
    users: [user.id],
  });
  return true;
};

/**
 * POST /mobile_push/register (upstream's register_push_device): human users only; push must be
 * configured (else PUSH_SERVICE_NOT_CONFIGURED) and the device the caller's ("Invalid device ID").
 * With the push key fields only, rotates the key of a registered device; with the token fields
 * only, rotates its token; with both, registers the device (again). A token goes to the bouncer
 * through the `push` job, so the request does not wait for it: the device's pending token is set
 * now, and the job's outcome comes as another `device/update` event. Writes the device's push
 * registration (conditionally: of two concurrent registrations one is refused as in progress) and
 * sends `device/update` with the fields that changed to the caller's clients. Repeating a
 * registration that is in place changes nothing.
 */
export const checkRegisterPushDevice = forHumans(async (user: User, deviceId: number, p: PushRegistrationParams): Promise<void> => {
  if (!config.pushBouncer()) throw pushServiceNotConfigured();
  const device = await clientDevicesStore.getClientDevice(user.id, deviceId, { consistent: true });
  if (!device) throw new BadRequestError('Invalid device ID');
  const keyFields = p.pushKey !== undefined && p.pushKeyId !== undefined;
  const tokenFields =
    p.bouncerPublicKey !== undefined && p.encryptedPushRegistration !== undefined && p.tokenId !== undefined && p.tokenKind !== undefined;
  if (!keyFields && !tokenFields)
    throw new BadRequestError('Missing parameters: must provide either all push key fields, all token fields, or both.');
  const push = device.push ?? {};
  const inProgress = () => new BadRequestError('A registration for the device already in progress.');

  if (keyFields && !tokenFields) {
    if (push.keyId === undefined) throw new BadRequestError('No push registration exists to rotate key for.');
    const key = checkPushKey(p.pushKey!);
    if (push.keyId === p.pushKeyId && push.key === key) return;
    if (!(await writeDevicePush(user, device, { ...push, key, keyId: p.pushKeyId! }, { push_key_id: p.pushKeyId! }))) throw inProgress();
    return;
  }

  // Another registration is on its way to the bouncer: a second one could race it there. One
  // pending for longer than its job can take (its start failed, or every attempt) no longer is.
  const now = nowSeconds();
  if (push.errorCode === undefined && push.pendingTokenId !== undefined && (push.tokenUpdatedAt ?? 0) > now - PENDING_REGISTRATION_SECONDS)
    throw inProgress();
  const tokenId = checkTokenId(p.tokenId!);
  let written: boolean;
  if (!keyFields) {
    if (push.keyId === undefined) throw new BadRequestError('No push registration exists to rotate token for.');
    if (push.errorCode === undefined && push.tokenId === tokenId) return;
    written = await writeDevicePush(
      user,
      device,
      { ...push, pendingTokenId: tokenId, tokenUpdatedAt: now, errorCode: undefined },
      { pending_push_token_id: tokenId, push_token_last_updated_timestamp: now, push_registration_error_code: null },
    );
  } else {
    const key = checkPushKey(p.pushKey!);
    if (
      push.errorCode === undefined &&
      push.keyId === p.pushKeyId &&
      push.key === key &&
      push.tokenId === tokenId &&
      push.tokenKind === p.tokenKind
    )
      return;
    written = await writeDevicePush(
      user,
      device,
      { ...push, key, keyId: p.pushKeyId!, tokenKind: p.tokenKind!, pendingTokenId: tokenId, tokenUpdatedAt: now, errorCode: undefined },
      {
        push_key_id: p.pushKeyId!,
        pending_push_token_id: tokenId,
        push_token_last_updated_timestamp: now,
        push_registration_error_code: null,
      },
    );
  }
  if (!written) throw inProgress();
  await startJob('push', {
    kind: 'register',
    realmId: user.realmId,
    userId: user.id,
    deviceId,
    tokenId,
    bouncerPublicKey: p.bouncerPublicKey!,
    encryptedPushRegistration: p.encryptedPushRegistration!,
  } satisfies PushJob);
});

/**
 * The `push` job's registration (upstream's handle_register_push_device_to_bouncer): forwards the
 * device's encrypted registration to the bouncer (POST remotes/push/e2ee/register). On success the
 * pending token becomes the device's token; when the bouncer refuses the registration itself
 * (INVALID_BOUNCER_PUBLIC_KEY, REQUEST_EXPIRED, an invalid encrypted registration) the device
 * records the error code; either way `device/update` tells the owner's clients. A bouncer that is
 * down, or refuses this server (its administrator must act), fails the job, to be retried. Nothing
 * when the device is gone or registers another token by now.
 */
const doRegisterDeviceWithBouncer = async (job: Extract<PushJob, { kind: 'register' }>): Promise<void> => {
  if (!config.pushBouncer()) return;
  const [realm, user, device] = await Promise.all([
    realmsStore.get(job.realmId),
    usersStore.get(job.realmId, job.userId),
    clientDevicesStore.getClientDevice(job.userId, job.deviceId, { consistent: true }),
  ]);
  if (!realm || !user || !device?.push || device.push.pendingTokenId !== job.tokenId) return;
  try {
    await sendForRealm(realm, (realmUuid) =>
      sendToBouncer('push/e2ee/register', {
        form: {
          realm_uuid: realmUuid,
          token_id: job.tokenId,
          encrypted_push_registration: job.encryptedPushRegistration,
          bouncer_public_key: job.bouncerPublicKey,
        },
      }),
    );
  } catch (error) {
    const retryLater =
      error instanceof BouncerRetryLaterError ||
      !(error instanceof BouncerRefusedError) ||
      error.code === undefined ||
      ['MISSING_REMOTE_REALM', 'INVALID_ZULIP_SERVER', 'PUSH_NOTIFICATIONS_DISALLOWED'].includes(error.code);
    if (retryLater) throw error;
    const code = (error as BouncerRefusedError).code!;
    await settleRegistration(job, user, (push) => [{ ...push, errorCode: code }, { push_registration_error_code: code }]);
    return;
  }
  await settleRegistration(job, user, (push) => [
    { ...push, tokenId: job.tokenId, pendingTokenId: undefined, errorCode: undefined },
    { push_token_id: job.tokenId, pending_push_token_id: null },
  ]);
};

/**
 * Records a registration's outcome on its device, unless the device is gone or registers another
 * token by now; read again and retried when a concurrent change (a key rotation) came first.
 */
const settleRegistration = (
  job: Extract<PushJob, { kind: 'register' }>,
  user: User,
  outcome: (push: DevicePush) => [DevicePush, Omit<Extract<DeviceEvent, { op: 'update' }>, 'type' | 'op' | 'device_id'>],
): Promise<void> =>
  retryLostRaces(async () => {
    const device = await clientDevicesStore.getClientDevice(job.userId, job.deviceId, { consistent: true });
    if (!device?.push || device.push.pendingTokenId !== job.tokenId) return;
    const [next, changed] = outcome(device.push);
    if (!(await writeDevicePush(user, device, next, changed))) throw new LostRaceError();
  });

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
    console.error(JSON.stringify({ push: 'job not started', realmId: message.realmId, messageId: message.id, error: String(error) }));
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
const registeredDevicesOf = async (userId: number) =>
  (await clientDevicesStore.listClientDevicesOfUser(userId)).flatMap((d) => {
    const { key, keyId, tokenId, tokenKind } = d.push ?? {};
    return key !== undefined && keyId !== undefined && tokenId !== undefined && tokenKind !== undefined
      ? [{ deviceId: d.deviceId, key, keyId, tokenId, tokenKind }]
      : [];
  });

/** Recipients one run of the job notifies at once. */
const NOTIFY_CONCURRENCY = 8;

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

const doSendMessageNotifications = async (job: Extract<PushJob, { kind: 'message' }>): Promise<void> => {
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
            console.error(
              JSON.stringify({
                push: 'refused by the bouncer',
                userId: user.id,
                messageId: message.id,
                code: error.code,
                msg: error.message,
              }),
            );
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
// Removing notifications of messages the user has read.

/**
 * When a user has read messages (`all`: every message, as POST /mark_all_as_read), hands the
 * `push` job those of them their phones were notified of (upstream: messages whose
 * active_mobile_push_notification flag is set), to remove the notifications. Reads the user's
 * notified messages (one query) only when push is configured; never fails the read.
 */
export const doStartPushRemovals = async (user: User, read: number[] | 'all'): Promise<void> => {
  if (!config.pushBouncer() || (read !== 'all' && read.length === 0)) return;
  try {
    const notified = await pushNotifiedStore.listPushNotified(user.id, nowSeconds());
    const readIds = read === 'all' ? undefined : new Set(read);
    const messageIds = readIds ? notified.filter((id) => readIds.has(id)) : notified;
    if (messageIds.length === 0) return;
    await startJob('push', { kind: 'remove', realmId: user.realmId, userId: user.id, messageIds } satisfies PushJob);
  } catch (error) {
    console.error(JSON.stringify({ push: 'removal not started', userId: user.id, error: String(error) }));
  }
};

/**
 * When a message is deleted, hands the `push` job the users who held it (`userIds`), to remove the
 * notifications their phones show of it (upstream's do_delete_messages clears them). Only when
 * push is configured; never fails the delete.
 */
export const doStartPushRemovalsOfDeleted = async (realmId: number, messageId: number, userIds: number[]): Promise<void> => {
  if (!config.pushBouncer() || userIds.length === 0) return;
  try {
    const sorted = [...userIds].sort((a, b) => a - b);
    await startJob('push', { kind: 'removeDeleted', realmId, messageId, userIds: encodeUserIds(sorted) } satisfies PushJob);
  } catch (error) {
    console.error(JSON.stringify({ push: 'removal not started', realmId, messageId, error: String(error) }));
  }
};

/**
 * The `push` job's removals for a deleted message: finds which of its holders were notified of it
 * (batched reads of their records), then removes each one's notification as doRemoveNotifications
 * does. A bouncer that is down fails the run after every user was tried, to be retried.
 */
const doRemoveDeletedNotifications = async (job: Extract<PushJob, { kind: 'removeDeleted' }>): Promise<void> => {
  if (!config.pushBouncer()) return;
  const notified = await pushNotifiedStore.listNotifiedOfMessage(job.messageId, decodeUserIds(job.userIds));
  const failures: unknown[] = [];
  await mapLimited([...notified.keys()], NOTIFY_CONCURRENCY, async (userId) => {
    try {
      await doRemoveNotifications({ kind: 'remove', realmId: job.realmId, userId, messageIds: [job.messageId] });
    } catch (error) {
      failures.push(error);
    }
  });
  if (failures.length > 0) throw new AggregateError(failures, `push removals of deleted message ${job.realmId}/${job.messageId}`);
};

/** The most message ids one removal payload carries (upstream removes in batches too). */
const REMOVE_BATCH = 200;

/**
 * The `push` job's removals (upstream's handle_remove_push_notification): sends the user's
 * registered devices upstream's `remove` payload with the read messages' ids, encrypted per
 * device, then forgets them. A bouncer that is down fails the run, to be retried; a refusal is
 * logged and the notifications forgotten.
 */
const doRemoveNotifications = async (job: Extract<PushJob, { kind: 'remove' }>): Promise<void> => {
  if (!config.pushBouncer()) return;
  const [realm, devices] = await Promise.all([realmsStore.get(job.realmId), registeredDevicesOf(job.userId)]);
  if (!realm) return;
  const url = realmUrl(realm);
  for (let i = 0; i < job.messageIds.length && devices.length > 0; i += REMOVE_BATCH) {
    const payload = removePushPayload(
      { realm_name: realm.name, realm_url: url, user_id: job.userId },
      job.messageIds.slice(i, i + REMOVE_BATCH),
    );
    const pushRequests = devices.map((d) => pushRequestFor(d, encryptPushPayload(payload, d.key)));
    try {
      await sendForRealm(realm, (realmUuid) =>
        sendToBouncer('push/e2ee/notify', { json: { realm_uuid: realmUuid, push_requests: pushRequests } }),
      );
    } catch (error) {
      if (!(error instanceof BouncerRefusedError)) throw error;
      console.error(JSON.stringify({ push: 'removal refused by the bouncer', userId: job.userId, code: error.code, msg: error.message }));
    }
  }
  await doRemoveLegacyNotifications(realm, job.userId, job.messageIds);
  await pushNotifiedStore.clearPushNotified(job.userId, job.messageIds);
};

// ---------------------------------------------------------------------------------------------
// POST /mobile_push/e2ee/test_notification

/** How long the test notification's request waits for the bouncer (inside a route function's 10 s). */
const TEST_NOTIFICATION_TIMEOUT_MS = 5_000;

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

/**
 * Sends a test notification to the bouncer in the request (the app shows the outcome), waiting at
 * most TEST_NOTIFICATION_TIMEOUT_MS, and answers the bouncer's failures as upstream's: one that
 * cannot be reached 502 FAILED_TO_CONNECT_BOUNCER, one that fails 502
 * INTERNAL_SERVER_ERROR_ON_BOUNCER, a refusal that `refused` does not name 403 ADMIN_ACTION_REQUIRED.
 */
export const sendTestToBouncer = async (
  realm: Realm,
  request: (realmUuid: string) => [string, BouncerBody],
  refused: (error: BouncerRefusedError) => ApiError | undefined = () => undefined,
): Promise<void> => {
  try {
    await sendForRealm(realm, (realmUuid) => sendToBouncer(...request(realmUuid), { timeoutMs: TEST_NOTIFICATION_TIMEOUT_MS }));
  } catch (error) {
    if (error instanceof BouncerRetryLaterError)
      throw error.kind === 'network'
        ? new ApiError('Network error while connecting to Zulip push notification service.', {
            statusCode: 502,
            code: ErrorCode.FAILED_TO_CONNECT_BOUNCER,
          })
        : new ApiError('Internal server error on Zulip push notification service, retry later.', {
            statusCode: 502,
            code: ErrorCode.INTERNAL_SERVER_ERROR_ON_BOUNCER,
          });
    if (error instanceof BouncerRefusedError)
      throw (
        refused(error) ??
        new ApiError('Push notification configuration issue on server, contact the server administrator or retry later.', {
          statusCode: 403,
          code: ErrorCode.ADMIN_ACTION_REQUIRED,
        })
      );
    throw error;
  }
};

/**
 * The `push` job (functions/jobs/push.ts, or this process): a registration, a message's
 * notifications, removals, or a legacy token's registration or removal (lib/actions/push/legacy.ts).
 */
export const doPushJob = async (job: PushJob): Promise<void> => {
  if (job.kind === 'register') return doRegisterDeviceWithBouncer(job);
  if (job.kind === 'message') return doSendMessageNotifications(job);
  if (job.kind === 'removeDeleted') return doRemoveDeletedNotifications(job);
  if (job.kind === 'legacyRegister' || job.kind === 'legacyUnregister') return doLegacyTokenJob(job);
  return doRemoveNotifications(job);
};
