// Missed-message emails (lib/actions/missed-emails/): the messages a user may be emailed about,
// one item per message in the user's partition, waiting for the user's batch; the batch item,
// which says when the batch's delivery check is scheduled (so that messages arriving within the
// batching period join it instead of scheduling another); and the one-click unsubscribe tokens.
// A pending message is claimed by one run of the delivery check before its email is sent, so a
// retried run never sends it again. Pending items and batches expire (TTL `expiresAt`).
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { batchDelete, deleteIfStill, queryPrefix, sendConditional } from './common';
import { entityKeys } from './keys';

/** Why a message is in a missed-message email (upstream's triggers). */
export type MissedEmailTrigger = 'direct' | 'mentioned' | 'wildcardMentioned' | 'followedTopic';

export type PendingMissedEmail = {
  realmId: number;
  userId: number;
  messageId: number;
  trigger: MissedEmailTrigger;
  /** The mentioned group, when the mention was of a group (upstream's mentioned_user_group_id). */
  mentionedGroupId?: number;
  /** The run of the delivery check that claimed it (it sends its email), if any. */
  claimedBy?: string;
};

/** How long a pending message or a batch is kept past its batch's time (a check that never ran). */
const KEEP_SECONDS = 86_400;
/** The most pending messages one check looks at. */
const MAX_PENDING = 500;

/** Records a message the user may be emailed about (a repeat of the same message changes nothing). */
export const putPendingMissedEmail = async (p: PendingMissedEmail, atSeconds: number): Promise<void> => {
  await sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.missedEmail(p.userId, p.messageId), ...p, expiresAt: atSeconds + KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/**
 * Opens the user's batch for `atSeconds` unless one is open whose time has not come (`nowSeconds`):
 * true when this call opened it (its caller schedules the check), false when the message joins
 * the open batch, whose check is scheduled already.
 */
export const openMissedEmailBatch = (userId: number, batchId: string, atSeconds: number, nowSeconds: number): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.missedEmailBatch(userId), batchId, atSeconds, expiresAt: atSeconds + KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk) OR atSeconds < :now',
      ExpressionAttributeValues: { ':now': nowSeconds },
    }),
  );

/** Closes the batch `batchId` (its check is running): the next message opens a new one. */
export const closeMissedEmailBatch = (userId: number, batchId: string): Promise<void> =>
  deleteIfStill(entityKeys.missedEmailBatch(userId), 'batchId', batchId);

/** The user's pending messages, oldest first (consistent: the check runs right after their writes). */
export const listPendingMissedEmails = async (userId: number): Promise<PendingMissedEmail[]> => {
  const k = entityKeys.missedEmailsOfUser(userId);
  const items = await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_PENDING, overflow: 'truncate', consistent: true });
  return items.map((item) => ({
    realmId: Number(item.realmId),
    userId: Number(item.userId),
    messageId: Number(item.messageId),
    trigger: item.trigger as MissedEmailTrigger,
    ...(item.mentionedGroupId !== undefined ? { mentionedGroupId: Number(item.mentionedGroupId) } : {}),
    ...(typeof item.claimedBy === 'string' ? { claimedBy: item.claimedBy } : {}),
  }));
};

/** Claims a pending message for one run (`runId`, new in every run): false when another run has it. */
export const claimPendingMissedEmail = (userId: number, messageId: number, runId: string): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.missedEmail(userId, messageId),
      UpdateExpression: 'SET claimedBy = :run',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(claimedBy)',
      ExpressionAttributeValues: { ':run': runId },
    }),
    { ownWrite: (stored) => stored?.claimedBy === runId },
  );

/** Gives back this run's claims whose email could not be sent (a later run sends it). */
export const releasePendingMissedEmails = async (userId: number, messageIds: number[], runId: string): Promise<void> => {
  for (const messageId of messageIds)
    await sendConditional(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: entityKeys.missedEmail(userId, messageId),
        UpdateExpression: 'REMOVE claimedBy',
        ConditionExpression: 'claimedBy = :run',
        ExpressionAttributeValues: { ':run': runId },
      }),
    );
};

/** Forgets pending messages (sent, read, or no longer notifiable). */
export const deletePendingMissedEmails = (userId: number, messageIds: number[]): Promise<void> =>
  batchDelete(
    'main',
    messageIds.map((id) => entityKeys.missedEmail(userId, id)),
  );

/** The email types a one-click link unsubscribes from (upstream's email_unsubscribers). */
export type UnsubscribeType = 'missed_messages' | 'digest';

/** A new one-click unsubscribe token of the user for `type`; the item keeps only its hash. */
export const createUnsubscribeToken = async (realmId: number, userId: number, type: UnsubscribeType): Promise<string> => {
  const token = randomBytes(18).toString('base64url');
  await documentClient().send(
    new PutCommand({ TableName: tableName('main'), Item: { ...entityKeys.unsubscribeToken(token), realmId, userId, type } }),
  );
  return token;
};

/** Whose token this is and for which type; undefined when unknown. */
export const getUnsubscribeToken = async (
  token: string,
): Promise<{ realmId: number; userId: number; type: UnsubscribeType } | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.unsubscribeToken(token) }));
  if (!out.Item) return undefined;
  return { realmId: Number(out.Item.realmId), userId: Number(out.Item.userId), type: out.Item.type as UnsubscribeType };
};
