// The messages a user's phones were notified of and that they have not read yet (upstream's
// active_mobile_push_notification flag): one item per message in the user's partition, claimed by
// the push job before it sends the notification and marked sent once the bouncer took it (so that
// no retry sends it twice: claimPushNotification), read when the user reads messages, removed
// once the notification is removed from the phones. Kept at most PUSH_NOTIFIED_DAYS (TTL).
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { batchDelete, batchGet, queryPrefix, sendConditional } from './common';
import { entityKeys } from './keys';

const PUSH_NOTIFIED_DAYS = 7;

/** The most notified messages of a user a read looks at. */
const MAX_NOTIFIED = 1000;

/**
 * Claims the user's notification of a message for one push job (`jobId`, the same in every run of
 * that job) before it is sent: true when this job may send it (nobody had claimed it, or this job
 * did and has not sent it yet: an earlier run failed before or during the send); false when
 * another job has it or it was sent.
 */
export const claimPushNotification = (userId: number, messageId: number, jobId: string, nowSeconds: number): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: {
        ...entityKeys.pushNotified(userId, messageId),
        messageId,
        claimedBy: jobId,
        expiresAt: nowSeconds + PUSH_NOTIFIED_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR (claimedBy = :job AND attribute_not_exists(sentAt))',
      ExpressionAttributeValues: { ':job': jobId },
    }),
  );

/** Records that the claimed notification reached the bouncer: no run of any job sends it again. */
export const markPushSent = async (userId: number, messageId: number, nowSeconds: number): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.pushNotified(userId, messageId),
      UpdateExpression: 'SET sentAt = :now',
      ExpressionAttributeValues: { ':now': nowSeconds },
    }),
  );
};

/** Gives up a claim whose notification was not sent (the job's next run claims it again); not another job's. */
export const releasePushClaim = async (userId: number, messageId: number, jobId: string): Promise<void> => {
  await sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.pushNotified(userId, messageId),
      ConditionExpression: 'claimedBy = :job AND attribute_not_exists(sentAt)',
      ExpressionAttributeValues: { ':job': jobId },
    }),
  );
};

/** The messages the user's phones were notified of and that are not removed yet (the oldest MAX_NOTIFIED). */
export const listPushNotified = async (userId: number, nowSeconds: number): Promise<number[]> => {
  const k = entityKeys.pushNotifiedOfUser(userId);
  const items = await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_NOTIFIED, overflow: 'truncate' });
  return items.filter((item) => Number(item.expiresAt) > nowSeconds).map((item) => Number(item.messageId));
};

/**
 * Which of these users' notifications of the message are sent or claimed (and not removed yet), by
 * user: `claimedBy` the job that claimed it, and whether it was sent (a record without a claim is
 * one written before claims existed: sent).
 */
export const listNotifiedOfMessage = async (
  messageId: number,
  userIds: number[],
): Promise<Map<number, { claimedBy: string | undefined; sent: boolean }>> => {
  const items = await batchGet(
    'main',
    userIds.map((userId) => entityKeys.pushNotified(userId, messageId)),
  );
  return new Map(
    items.map((item) => [
      Number(String(item.pk).slice('USER#'.length)),
      {
        claimedBy: typeof item.claimedBy === 'string' ? item.claimedBy : undefined,
        sent: item.sentAt !== undefined || item.claimedBy === undefined,
      },
    ]),
  );
};

/** Forgets these notifications (they were removed from the phones). */
export const clearPushNotified = (userId: number, messageIds: number[]): Promise<void> =>
  batchDelete(
    'main',
    messageIds.map((messageId) => entityKeys.pushNotified(userId, messageId)),
  );
