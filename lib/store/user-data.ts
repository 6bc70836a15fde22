// A user's personal objects in the user partition: alert words and onboarding steps (one item
// each), saved snippets and navigation views (one item per object). Reads named by access pattern.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NavigationView, OnboardingStep, SavedSnippet } from '../models/user-data';
import { documentClient, tableName } from './client';
import { queryPrefix, stripKeys, type Item } from './common';
import { entityKeys, type Key } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const getItem = async (key: Key): Promise<Item | undefined> =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key }))).Item as Item | undefined;

/** The user's alert words, in the order they were added ([] when none). */
export const getAlertWords = async (userId: number): Promise<string[]> =>
  ((await getItem(entityKeys.alertWords(userId)))?.words as string[] | undefined) ?? [];

/** The onboarding steps the user has not completed yet ([] when none are pending). */
export const getPendingOnboardingSteps = async (userId: number): Promise<OnboardingStep[]> =>
  ((await getItem(entityKeys.onboardingSteps(userId)))?.steps as OnboardingStep[] | undefined) ?? [];

/** The user's saved snippets, in id order. */
export const listSavedSnippetsOfUser = async (userId: number): Promise<SavedSnippet[]> => {
  const k = entityKeys.savedSnippetsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map((item) => stripKeys(item) as SavedSnippet);
};

/** The user's navigation views, in fragment order. */
export const listNavigationViewsOfUser = async (userId: number): Promise<NavigationView[]> => {
  const k = entityKeys.navigationViewsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map((item) => stripKeys(item) as NavigationView);
};
