// Emoji reactions, kept in the message item's `reactions` map (see lib/models/reaction.ts). Each
// write touches one key of the map under a condition, so concurrent reactions never overwrite
// each other and a reaction is added or removed at most once.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Message } from '../models/message';
import { reactionKey, type StoredReaction } from '../models/reaction';
import { tableName } from './client';
import { sameValue, sendConditional, writeConditional, type Item } from './common';
import { entityKeys } from './keys';
import { createHistoricalUserMessage } from './message-flags';

/** DynamoDB refuses an update of a key inside a map that does not exist yet. */
const isMissingMap = (error: unknown): boolean =>
  (error as Error).name === 'ValidationException' && /document path/i.test((error as Error).message);

/**
 * Adds a user's reaction to a message: 'added', or 'exists' when that user already has a reaction
 * with that type and code, or 'missing' when the message is gone. The first reaction of a message
 * creates the map (conditionally, so two first reactions at once both land: the loser retries).
 */
export const addReaction = async (
  realmId: number,
  messageId: number,
  reaction: StoredReaction,
): Promise<'added' | 'exists' | 'missing'> => {
  const key = reactionKey(reaction.userId, reaction.reactionType, reaction.emojiCode);
  const Key = entityKeys.message(realmId, messageId);
  // An earlier attempt of this request, applied but unanswered, shows as this very reaction stored.
  const ownWrite = (stored: Item | undefined) => sameValue((stored?.reactions as Item | undefined)?.[key], reaction);
  for (;;) {
    try {
      const outcome = await writeConditional(
        new UpdateCommand({
          TableName: tableName('main'),
          Key,
          UpdateExpression: 'SET reactions.#k = :r',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reactions.#k)',
          ExpressionAttributeNames: { '#k': key },
          ExpressionAttributeValues: { ':r': reaction },
        }),
        { ownWrite },
      );
      if (outcome.written) return 'added';
      return outcome.stored ? 'exists' : 'missing';
    } catch (error) {
      if (!isMissingMap(error)) throw error;
    }
    const created = await sendConditional(
      new UpdateCommand({
        TableName: tableName('main'),
        Key,
        UpdateExpression: 'SET reactions = :m',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reactions)',
        ExpressionAttributeValues: { ':m': { [key]: reaction } },
      }),
      { ownWrite },
    );
    if (created) return 'added';
    // Either the message is gone or another first reaction created the map: the next round tells.
  }
};

/** Removes a user's reaction: true if it was there (a concurrent removal makes the other false). */
export const removeReaction = (
  realmId: number,
  messageId: number,
  userId: number,
  reactionType: string,
  emojiCode: string,
): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.message(realmId, messageId),
      UpdateExpression: 'REMOVE reactions.#k',
      ConditionExpression: 'attribute_exists(reactions.#k)',
      ExpressionAttributeNames: { '#k': reactionKey(userId, reactionType, emojiCode) },
    }),
  );

/**
 * Upstream's create_historical_user_messages for one message: a row flagged read and historical
 * for a user who reacts to a channel message they never received, unless they have one by now.
 */
export const putHistoricalUserMessage = async (message: Message, userId: number): Promise<void> => {
  await createHistoricalUserMessage(message, userId, ['read', 'historical']);
};
