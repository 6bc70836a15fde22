// Legacy (unencrypted) mobile push notifications through the push bouncer, as upstream's
// self-hosted servers still send them (zerver/lib/push_notifications.py, zilencer/views.py) to
// the FCM and APNs tokens an app registers with POST /users/me/android_gcm_reg_id and
// /users/me/apns_device_token: the bouncer sees these notifications' content, unlike the end-to-end
// encrypted ones (lib/actions/push/notifications.ts), whose `push` job also runs these. A user's
// tokens are kept here (upstream's PushDeviceToken) and forwarded to the bouncer's
// remotes/push/register by the job, never in the request; a new message's notification and the
// removal of read ones go to remotes/push/notify, a test notification to remotes/push/test_notification.
// A user with both kinds of registration gets both notifications, as upstream's handle_push_notification
// sends both.
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import {
  BOUNCER_TOKEN_KIND,
  legacyBasePayload,
  legacyMessagePayloads,
  legacyRemovePayloads,
  legacyTokenProblem,
  userPushUuid,
  type LegacyMessage,
  type LegacyTokenKind,
} from '../../models/push-legacy';
import { pushTextOf, type PushMessage, type PushTrigger } from '../../models/push-notifications';
import { realmUrl, type Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { startJob } from '../../store/jobs';
import { BouncerRefusedError, sendToBouncer } from '../../store/push-bouncer';
import * as pushTokensStore from '../../store/push-tokens';
import type { PushToken } from '../../store/push-tokens';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { sendForRealm, sendTestToBouncer } from './bouncer';
import type { LegacyTokenJob } from '../../models/push-job';
import { forHumans } from '../requiring';
import { log } from '../../log';

/** Who the bouncer knows a user's legacy tokens by: their uuid, and their id (upstream sends both). */
const bouncerUser = (user: { realmId: number; id: number }) => ({
  user_uuid: userPushUuid(user.realmId, user.id, config.pushBouncer()!),
  user_id: user.id,
});

const checkToken = (token: string, kind: LegacyTokenKind): void => {
  const problem = legacyTokenProblem(token, kind);
  if (problem) throw new BadRequestError(problem);
};

// ---------------------------------------------------------------------------------------------
// POST and DELETE /users/me/android_gcm_reg_id, /users/me/apns_device_token

/**
 * POST /users/me/android_gcm_reg_id and /users/me/apns_device_token (upstream's add_android_reg_id,
 * add_apns_device_token): human users only; upstream's validate_token ("Empty or invalid length
 * token", "Invalid APNS token"; the handler checks an APNs token's app id).
 * Stores the token for the caller unless they have it (a second registration changes nothing
 * stored); with push configured, hands the `push` job its registration with the bouncer, every
 * time, as upstream sends it every time (the bouncer keeps one). Without push configured the token
 * is only kept, as upstream keeps it. No events.
 */
export const checkAddLegacyToken = forHumans(async (user: User, kind: LegacyTokenKind, token: string, appId?: string): Promise<void> => {
  checkToken(token, kind);
  await pushTokensStore.addPushToken({
    userId: user.id,
    kind,
    token,
    ...(kind === 'apns' && appId !== undefined ? { appId } : {}),
    createdAt: nowSeconds(),
  });
  if (!config.pushBouncer()) return;
  await startJob('push', {
    kind: 'legacyRegister',
    realmId: user.realmId,
    userId: user.id,
    tokenKind: kind,
    token,
  } satisfies LegacyTokenJob);
});

/**
 * DELETE /users/me/android_gcm_reg_id and /users/me/apns_device_token (upstream's
 * remove_android_reg_id, remove_apns_device_token): human users only; validate_token as on add;
 * "Token does not exist" unless the caller has this token of this kind (the delete is conditional:
 * of two concurrent removals one succeeds). With push configured, hands the `push` job its removal
 * from the bouncer. No events.
 */
export const checkRemoveLegacyToken = forHumans(async (user: User, kind: LegacyTokenKind, token: string): Promise<void> => {
  checkToken(token, kind);
  if (!(await pushTokensStore.deletePushToken(user.id, kind, token))) throw new BadRequestError('Token does not exist');
  if (!config.pushBouncer()) return;
  await startJob('push', {
    kind: 'legacyUnregister',
    realmId: user.realmId,
    userId: user.id,
    tokenKind: kind,
    token,
  } satisfies LegacyTokenJob);
});

/**
 * The `push` job's registration or removal of a legacy token (upstream's add_push_device_token and
 * remove_push_device_token, which send it in the request): POST remotes/push/register or
 * remotes/push/unregister, as the token is now. Nothing when the user removed the token again
 * before a registration ran, or added it again before a removal ran (the later job does the
 * bouncer's part). A bouncer that is down fails the job, to be retried; a refusal (a token the
 * bouncer does not have, to remove) is logged, as sending it again would be refused again.
 */
export const doLegacyTokenJob = async (job: LegacyTokenJob): Promise<void> => {
  if (!config.pushBouncer()) return;
  const [realm, stored] = await Promise.all([
    realmsStore.get(job.realmId),
    pushTokensStore.getPushToken(job.userId, job.tokenKind, job.token),
  ]);
  if (!realm) return;
  const register = job.kind === 'legacyRegister';
  if (register !== (stored !== undefined)) return;
  const form = {
    server_uuid: config.pushBouncer()!.orgId,
    ...bouncerUser({ realmId: job.realmId, id: job.userId }),
    token: job.token,
    token_kind: BOUNCER_TOKEN_KIND[job.tokenKind],
    ...(register && stored?.appId !== undefined ? { ios_app_id: stored.appId } : {}),
  };
  try {
    await sendForRealm(realm, (realmUuid) =>
      sendToBouncer(register ? 'push/register' : 'push/unregister', { form: { ...form, realm_uuid: realmUuid } }),
    );
  } catch (error) {
    if (!(error instanceof BouncerRefusedError)) throw error;
    log.error(`push: legacy ${register ? 'registration' : 'removal'} refused by the bouncer`, {
      userId: job.userId,
      code: error.code,
      refusal: error.message,
    });
  }
};

// ---------------------------------------------------------------------------------------------
// Notifications (called by the push job's sends and removals)

/**
 * Sends one request to remotes/push/notify for a user's legacy tokens (upstream's
 * send_notifications_to_bouncer) and forgets the tokens the bouncer answers it no longer has
 * (deleted_devices). False when the bouncer refused it (logged: sending it again would be refused
 * again); a bouncer that is down throws.
 */
const notifyLegacyTokens = async (
  realm: Realm,
  userId: number,
  tokens: PushToken[],
  payloads: { apns_payload: unknown; gcm_payload: unknown; gcm_options: unknown },
): Promise<boolean> => {
  const byKind = (kind: LegacyTokenKind) => tokens.filter((t) => t.kind === kind).map((t) => t.token);
  let answer: Record<string, unknown> = {};
  try {
    await sendForRealm(realm, async (realmUuid) => {
      answer = await sendToBouncer('push/notify', {
        json: {
          ...bouncerUser({ realmId: realm.id, id: userId }),
          realm_uuid: realmUuid,
          ...payloads,
          android_devices: byKind('fcm'),
          apple_devices: byKind('apns'),
        },
      });
    });
  } catch (error) {
    if (!(error instanceof BouncerRefusedError)) throw error;
    log.error('push: legacy notification refused by the bouncer', { userId, code: error.code, refusal: error.message });
    return false;
  }
  const deleted = (answer.deleted_devices ?? {}) as { android_devices?: unknown; apple_devices?: unknown };
  const gone = [
    ...(Array.isArray(deleted.android_devices) ? deleted.android_devices.map((token) => ['fcm', token] as const) : []),
    ...(Array.isArray(deleted.apple_devices) ? deleted.apple_devices.map((token) => ['apns', token] as const) : []),
  ].filter((entry): entry is readonly [LegacyTokenKind, string] => typeof entry[1] === 'string');
  await Promise.all(gone.map(([kind, token]) => pushTokensStore.deletePushToken(userId, kind, token)));
  return true;
};

/** What the push job knows of a notification to send a user's legacy tokens. */
export type LegacyNotification = {
  realm: Realm;
  user: User;
  sender: User;
  /** The message's facts, as the E2EE payload has them (its content is made again from `html`). */
  facts: PushMessage;
  html: string;
  trigger: PushTrigger;
  tokens: PushToken[];
};

/**
 * The push job's notification of a new message to a recipient's legacy tokens (upstream's
 * get_message_payload_apns and get_message_payload_gcm, through the bouncer): the job decided the
 * recipient is notified (and has recorded it, for its removal). Whether the bouncer took it; a
 * bouncer that is down throws (the job is retried); a refusal is logged (false).
 */
export const doSendLegacyNotification = async (n: LegacyNotification): Promise<boolean> => {
  const { facts } = n;
  let where: { channelId: number; channelName: string; topic: string } | { members: { id: number; fullName: string }[] };
  if ('channelId' in facts) where = { channelId: facts.channelId, channelName: facts.channelName, topic: facts.topic };
  else {
    // A group's title names its members; a one-to-one conversation's needs no names.
    const members = facts.recipientUserIds.length > 2 ? await usersStore.getManyWithSystemBots(n.realm.id, facts.recipientUserIds) : [];
    where = { members: facts.recipientUserIds.map((id) => ({ id, fullName: members.find((u) => u.id === id)?.fullName ?? '' })) };
  }
  const { text, truncated } = pushTextOf(n.html);
  const message: LegacyMessage = {
    messageId: facts.messageId,
    senderId: n.sender.id,
    senderEmail: n.sender.email,
    senderFullName: facts.senderFullName,
    senderAvatarUrl: facts.senderAvatarUrl,
    time: facts.time,
    content: text,
    contentTruncated: truncated,
    ...where,
  };
  const base = legacyBasePayload({ id: n.realm.id, name: n.realm.name, url: realmUrl(n.realm) }, n.user.id);
  return notifyLegacyTokens(n.realm, n.user.id, n.tokens, legacyMessagePayloads(base, message, n.trigger));
};

/**
 * The push job's removal of read messages' notifications from a user's legacy tokens (upstream's
 * handle_remove_push_notification: the newest 200 of them in one payload). Nothing without
 * tokens. A bouncer that is down throws (the job is retried); a refusal is logged.
 */
export const doRemoveLegacyNotifications = async (realm: Realm | undefined, userId: number, messageIds: number[]): Promise<void> => {
  if (!config.pushBouncer() || !realm || messageIds.length === 0) return;
  const tokens = await pushTokensStore.listPushTokensOfUser(userId);
  if (tokens.length === 0) return;
  const base = legacyBasePayload({ id: realm.id, name: realm.name, url: realmUrl(realm) }, userId);
  await notifyLegacyTokens(realm, userId, tokens, legacyRemovePayloads(base, messageIds));
};

// ---------------------------------------------------------------------------------------------
// POST /mobile_push/test_notification

/**
 * POST /mobile_push/test_notification (upstream's send_test_push_notification_api): human users
 * only; to the caller's token `token` ("Device not recognized", INVALID_PUSH_DEVICE_TOKEN, when
 * they have no such token, of either kind) or to all their tokens (none: nothing to send, success,
 * as upstream). With push configured, sends each the bouncer's remotes/push/test_notification in
 * the request (upstream's base payload: the bouncer makes the test notification), with the E2EE
 * test's errors for a bouncer that fails or refuses this server, and "Device not recognized by the
 * push bouncer" (INVALID_REMOTE_PUSH_DEVICE_TOKEN) for a token the bouncer does not have. Without
 * push configured nothing is sent (upstream has nobody to send it). Writes nothing.
 */
export const checkSendLegacyTestNotification = forHumans(async (user: User, token: string | undefined): Promise<void> => {
  let tokens: PushToken[];
  if (token !== undefined) {
    const found = (await Promise.all((['fcm', 'apns'] as const).map((kind) => pushTokensStore.getPushToken(user.id, kind, token)))).filter(
      (t): t is PushToken => t !== undefined,
    );
    if (found.length === 0) throw new ApiError('Device not recognized', { code: ErrorCode.INVALID_PUSH_DEVICE_TOKEN });
    tokens = found;
  } else tokens = await pushTokensStore.listPushTokensOfUser(user.id);
  if (!config.pushBouncer() || tokens.length === 0) return;
  const realm = await realmsStore.get(user.realmId);
  if (!realm) throw new Error(`the organization ${user.realmId} of user ${user.id} is missing`);
  const basePayload = legacyBasePayload({ id: realm.id, name: realm.name, url: realmUrl(realm) }, user.id);
  for (const t of tokens)
    await sendTestToBouncer(
      realm,
      (realmUuid) => [
        'push/test_notification',
        {
          json: {
            realm_uuid: realmUuid,
            ...bouncerUser(user),
            token: t.token,
            token_kind: BOUNCER_TOKEN_KIND[t.kind],
            base_payload: basePayload,
          },
        },
      ],
      (refused) =>
        refused.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN'
          ? new ApiError('Device not recognized by the push bouncer', { code: ErrorCode.INVALID_REMOTE_PUSH_DEVICE_TOKEN })
          : undefined,
    );
});
