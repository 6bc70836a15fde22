// Weekly digest emails (lib/actions/digests/): the record of a user's last digest, claimed before
// the email is sent so that a retried or repeated run sends nothing twice (upstream looks for its
// USER_DIGEST_EMAIL_CREATED audit log row of the last 12 hours), and the channel messages of the
// period a digest covers. Access patterns (docs/data-model.md):
//
// | pattern                            | table/index | key condition                                         |
// |------------------------------------|-------------|-------------------------------------------------------|
// | claim / release a user's digest    | main        | USER#<uid> / DIGESTSENT (conditional put / delete)     |
// | a channel's messages since a time  | main.gsi1   | the channel's messages, newest first, until older ones |
// | a user's rows since a time         | main        | USER#<uid> UM#…, newest first, until older ones        |
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Message, UserMessage } from '../models/message';
import { tableName } from './client';
import { deleteIfStill, sendConditional, stripKeys, type Item } from './common';
import { entityKeys } from './keys';
import { messagePartitions, queryPartitionPage, type MessagePartition, type PartitionCursor } from './message-queries';

/** How long the record of a digest is kept: past the next week's run. */
const KEEP_SECONDS = 8 * 86_400;
/** The most messages of one channel (or received by one user) a digest looks at: the newest of the period. */
export const MAX_DIGEST_MESSAGES = 1_000;
const PAGE = 200;

/**
 * Claims the user's digest for run `runId` at `nowSeconds`: false when a digest was sent (or is
 * being sent) to them after `notBefore`, by another run. A run that claimed already claims again.
 */
export const claimDigest = (userId: number, runId: string, nowSeconds: number, notBefore: number): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.digestSent(userId), runId, sentAt: nowSeconds, expiresAt: nowSeconds + KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk) OR sentAt <= :notBefore OR runId = :run',
      ExpressionAttributeValues: { ':notBefore': notBefore, ':run': runId },
    }),
    { ownWrite: (stored) => stored?.runId === runId },
  );

/** Gives back a claim whose email SES did not take (the retried run sends it). */
export const releaseDigest = (userId: number, runId: string): Promise<void> => deleteIfStill(entityKeys.digestSent(userId), 'runId', runId);

/** The items of a partition (newest first) sent after `sinceSeconds`, at most MAX_DIGEST_MESSAGES. */
const newestSince = async (partition: MessagePartition, sinceSeconds: number): Promise<Item[]> => {
  const found: Item[] = [];
  let cursor: PartitionCursor;
  do {
    const page = await queryPartitionPage(partition, {
      direction: 'older',
      from: Number.MAX_SAFE_INTEGER,
      inclusive: true,
      limit: Math.min(PAGE, MAX_DIGEST_MESSAGES - found.length),
      cursor,
    });
    for (const item of page.items) {
      if (Number(item.dateSent) <= sinceSeconds) return found;
      found.push(stripKeys(item));
    }
    cursor = page.cursor;
  } while (cursor && found.length < MAX_DIGEST_MESSAGES);
  return found;
};

/** A channel's messages sent after `sinceSeconds`, newest first, at most MAX_DIGEST_MESSAGES. */
export const listChannelMessagesSince = async (channelId: number, sinceSeconds: number): Promise<Message[]> =>
  (await newestSince(messagePartitions.channel(channelId), sinceSeconds)) as Message[];

/** A user's rows of the messages they received after `sinceSeconds`, newest first, at most MAX_DIGEST_MESSAGES. */
export const listRowsOfUserSince = async (userId: number, sinceSeconds: number): Promise<UserMessage[]> =>
  (await newestSince(messagePartitions.rowsOfUser(userId), sinceSeconds)) as UserMessage[];
