// A message's pending delivery (docs/data-model.md): the lease its deliverer holds on it, taken
// over by the messageFanout job or deliveryRecovery, and removed once every recipient has it.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Message, PendingDelivery } from '../models/message';
import { tableName } from './client';
import { sendConditional } from './common';
import { entityKeys } from './keys';

/**
 * Takes over a message's pending delivery: until `leaseUntil` (ms) nobody else may deliver it.
 * Allowed when its lease has run out (its deliverer died or gave up), when `from` owns it (the
 * request hands its delivery to its job), or when `owner` itself does (an earlier run of the same
 * job, which failed after its claim). `pending` is the delivery as read (consistently); false
 * when it changed meanwhile (another deliverer claimed or finished it) or the lease is still held.
 */
export const claimPendingDelivery = async (
  m: Message & { pendingDelivery: PendingDelivery },
  claim: { owner: string; leaseUntil: number; now: number; from?: string },
): Promise<boolean> => {
  const pending = m.pendingDelivery;
  if (pending.leaseUntil >= claim.now && pending.owner !== claim.from && pending.owner !== claim.owner) return false;
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.message(m.realmId, m.id),
      UpdateExpression: 'SET pendingDelivery.#owner = :me, pendingDelivery.leaseUntil = :until, pendingDelivery.attempts = :next',
      ConditionExpression: 'pendingDelivery.attempts = :prev AND pendingDelivery.#owner = :was',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: {
        ':me': claim.owner,
        ':until': claim.leaseUntil,
        ':next': pending.attempts + 1,
        ':prev': pending.attempts,
        ':was': pending.owner,
      },
    }),
  );
};

/** Removes a message's pending delivery once every recipient has it, if `owner` still holds it; a deleted message stays deleted. */
export const clearPendingDelivery = async (realmId: number, messageId: number, owner: string): Promise<void> => {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.message(realmId, messageId),
      UpdateExpression: 'REMOVE pendingDelivery',
      ConditionExpression: 'pendingDelivery.#owner = :me',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':me': owner },
    }),
  );
};
