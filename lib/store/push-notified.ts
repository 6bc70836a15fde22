// The messages a user's phones were notified of and that they have not read yet (upstream's
// active_mobile_push_notification flag): one item per message in the user's partition, written by
// the push job once the bouncer took the notification, read when the user reads messages, removed
// once the notification is removed from the phones. Kept at most PUSH_NOTIFIED_DAYS (TTL).
import { batchDelete, batchGet, batchPut, queryPrefix } from './common';
import { entityKeys } from './keys';

const PUSH_NOTIFIED_DAYS = 7;

/** The most notified messages of a user a read looks at. */
const MAX_NOTIFIED = 1000;

/** Records that the user's phones show a notification of these messages. */
export const markPushNotified = (userId: number, messageIds: number[], nowSeconds: number): Promise<void> =>
  batchPut(
    'main',
    messageIds.map((messageId) => ({
      ...entityKeys.pushNotified(userId, messageId),
      messageId,
      expiresAt: nowSeconds + PUSH_NOTIFIED_DAYS * 86_400,
    })),
  );

/** The messages the user's phones were notified of and that are not removed yet (the oldest MAX_NOTIFIED). */
export const listPushNotified = async (userId: number, nowSeconds: number): Promise<number[]> => {
  const k = entityKeys.pushNotifiedOfUser(userId);
  const items = await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_NOTIFIED, overflow: 'truncate' });
  return items.filter((item) => Number(item.expiresAt) > nowSeconds).map((item) => Number(item.messageId));
};

/** Which of these users' phones were notified of the message (and the notification not removed yet). */
export const listNotifiedOfMessage = async (messageId: number, userIds: number[]): Promise<Set<number>> => {
  const items = await batchGet(
    'main',
    userIds.map((userId) => entityKeys.pushNotified(userId, messageId)),
  );
  return new Set(items.map((item) => Number(String(item.pk).slice('USER#'.length))));
};

/** Forgets these notifications (they were removed from the phones). */
export const clearPushNotified = (userId: number, messageIds: number[]): Promise<void> =>
  batchDelete(
    'main',
    messageIds.map((messageId) => entityKeys.pushNotified(userId, messageId)),
  );
