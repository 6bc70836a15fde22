// A user's personal objects in the user partition: alert words and onboarding steps (one item
// each), saved snippets (one item per snippet), and the count of the user's snippets that bounds
// them. Reads and writes named by access pattern. Navigation views: navigation-views.ts.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OnboardingStep, SavedSnippet } from '../models/user-data';
import { documentClient, tableName } from './client';
import { countStep, queryPrefix, sendConditional, sendTransaction, stripKeys, type Item, type TransactionLoss } from './common';
import { entityKeys, type Key } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const getItem = async (key: Key): Promise<Item | undefined> =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key }))).Item as Item | undefined;

/** The user's alert words, in the order they were added ([] when none). */
export const getAlertWords = async (userId: number): Promise<string[]> =>
  ((await getItem(entityKeys.alertWords(userId)))?.words as string[] | undefined) ?? [];

/**
 * Every user's alert words in an organization, by user id: the index a send reads in one request
 * (upstream's alert_words_in_realm), kept with each user's own item by setAlertWords.
 */
export const getRealmAlertWords = async (realmId: number): Promise<Map<number, string[]>> => {
  const users = ((await getItem(entityKeys.realmAlertWords(realmId)))?.users ?? {}) as Record<string, string[]>;
  return new Map(
    Object.entries(users)
      .filter(([, words]) => words.length > 0)
      .map(([id, words]) => [Number(id), words]),
  );
};

/**
 * Replaces a user's alert words, on condition that they are still `previous` (a concurrent
 * change refuses it: false, nothing written), together with the organization's index.
 */
export const setAlertWords = async (realmId: number, userId: number, words: string[], previous: string[]): Promise<boolean> => {
  const index = entityKeys.realmAlertWords(realmId);
  // The index's map must exist before one user's entry in it can be set.
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: index,
      UpdateExpression: 'SET #users = if_not_exists(#users, :empty)',
      ExpressionAttributeNames: { '#users': 'users' },
      ExpressionAttributeValues: { ':empty': {} },
    }),
  );
  const loss = await sendTransaction([
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.alertWords(userId), userId, words },
        ConditionExpression: previous.length === 0 ? 'attribute_not_exists(pk) OR size(words) = :zero' : 'words = :previous',
        ExpressionAttributeValues: previous.length === 0 ? { ':zero': 0 } : { ':previous': previous },
      },
    },
    {
      Update: {
        TableName: tableName('main'),
        Key: index,
        UpdateExpression: 'SET #users.#user = :words',
        ExpressionAttributeNames: { '#users': 'users', '#user': String(userId) },
        ExpressionAttributeValues: { ':words': words },
      },
    },
  ]);
  return loss === undefined;
};

/** The onboarding steps the user has not completed yet ([] when none are pending). */
export const getPendingOnboardingSteps = async (userId: number): Promise<OnboardingStep[]> =>
  ((await getItem(entityKeys.onboardingSteps(userId)))?.steps as OnboardingStep[] | undefined) ?? [];

/** The user's saved snippets, in id order. */
export const listSavedSnippetsOfUser = async (userId: number): Promise<SavedSnippet[]> => {
  const k = entityKeys.savedSnippetsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map((item) => stripKeys(item) as SavedSnippet);
};

const toSavedSnippet = (item: Item): SavedSnippet => ({
  id: Number(item.id),
  userId: Number(item.userId),
  title: String(item.title),
  content: String(item.content),
  dateCreated: Number(item.dateCreated),
});

/** One saved snippet of this user, or undefined (strongly consistent). */
export const getSavedSnippet = async (userId: number, snippetId: number): Promise<SavedSnippet | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.savedSnippet(userId, snippetId), ConsistentRead: true }),
  );
  return out.Item ? toSavedSnippet(out.Item) : undefined;
};

/** A snippet write's outcome: written, refused by its condition, or overtaken by a concurrent transaction (nothing written: retry). */
export type SnippetWrite = 'written' | 'refused' | 'conflict';

const outcome = (loss: TransactionLoss | undefined): SnippetWrite =>
  loss === undefined ? 'written' : loss.lost === 'conflict' ? 'conflict' : 'refused';

/**
 * Writes a new snippet and counts it, in one transaction that is refused while the user already
 * keeps `max` snippets (a missing count is none), so of concurrent creates at the bound only the
 * free places are taken. The id is freshly allocated: only the count's condition can refuse it.
 */
export const createSavedSnippet = async (snippet: SavedSnippet, max: number): Promise<SnippetWrite> => {
  const loss = await sendTransaction([
    countStep(entityKeys.savedSnippetCount(snippet.userId), 1, max),
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.savedSnippet(snippet.userId, snippet.id), ...snippet },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  return outcome(loss);
};

/** Replaces the title and content of an existing snippet; false if it no longer exists. */
export const updateSavedSnippet = async (
  userId: number,
  snippetId: number,
  changes: { title: string; content: string },
): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.savedSnippet(userId, snippetId),
      UpdateExpression: 'SET title = :t, content = :c',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':t': changes.title, ':c': changes.content },
    }),
  );

/** Deletes a snippet of this user and uncounts it, together; refused if there was none (the count is then untouched). */
export const deleteSavedSnippet = async (userId: number, snippetId: number): Promise<SnippetWrite> => {
  const loss = await sendTransaction([
    {
      Delete: {
        TableName: tableName('main'),
        Key: entityKeys.savedSnippet(userId, snippetId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    countStep(entityKeys.savedSnippetCount(userId), -1),
  ]);
  return outcome(loss);
};
