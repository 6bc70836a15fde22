// Removing the push notifications of messages a user has read or that were deleted: started by
// the flag and delete actions, sent by the `push` job, to registered devices and legacy tokens.
import { nowSeconds } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config } from '../../config';
import { decodeUserIds, encodeUserIds } from '../../events/fanout';
import { encryptPushPayload, removePushPayload, pushRequestFor } from '../../models/push-notifications';
import { realmUrl } from '../../models/realm';
import type { User } from '../../models/user';
import { startJob } from '../../store/jobs';
import * as pushNotifiedStore from '../../store/push-notified';
import { BouncerRefusedError, sendToBouncer } from '../../store/push-bouncer';
import * as realmsStore from '../../store/realms';
import { doRemoveLegacyNotifications } from './legacy';
import type { PushJob } from '../../models/push-job';
import { sendForRealm } from './bouncer';
import { registeredDevicesOf, NOTIFY_CONCURRENCY } from './notifications';
import { log } from '../../log';

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
    log.error('push: removal not started', { userId: user.id, error: String(error) });
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
    log.error('push: removal not started', { realmId, messageId, error: String(error) });
  }
};

/**
 * The `push` job's removals for a deleted message: finds which of its holders were notified of it
 * (batched reads of their records), then removes each one's notification as doRemoveNotifications
 * does. A bouncer that is down fails the run after every user was tried, to be retried.
 */
export const doRemoveDeletedNotifications = async (job: Extract<PushJob, { kind: 'removeDeleted' }>): Promise<void> => {
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
export const doRemoveNotifications = async (job: Extract<PushJob, { kind: 'remove' }>): Promise<void> => {
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
      log.error('push: removal refused by the bouncer', { userId: job.userId, code: error.code, refusal: error.message });
    }
  }
  await doRemoveLegacyNotifications(realm, job.userId, job.messageIds);
  await pushNotifiedStore.clearPushNotified(job.userId, job.messageIds);
};
