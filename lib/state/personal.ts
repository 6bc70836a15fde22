// Register state of the caller's personal objects: alert words, pending onboarding steps, saved
// snippets and navigation views. One read each, in the caller's own partition; spectators have none.
import { config } from '../config';
import { toApiNavigationView, toApiSavedSnippet } from '../models/user-data';
import * as navigationViewsStore from '../store/navigation-views';
import * as userDataStore from '../store/user-data';
import type { StateBuilder } from './registry';

/** "alert_words". */
export const alertWordsState: StateBuilder = async (ctx) => {
  if (!ctx.want('alert_words')) return {};
  return { alert_words: ctx.user ? await userDataStore.getAlertWords(ctx.user.id) : [] };
};

/** "onboarding_steps": the steps still to show, and the onboarding video. */
export const onboardingStepsState: StateBuilder = async (ctx) => {
  if (!ctx.want('onboarding_steps')) return {};
  const steps = ctx.user ? await userDataStore.getPendingOnboardingSteps(ctx.user.id) : [];
  return {
    onboarding_steps: steps.map((s) => ({ type: s.type, name: s.name })),
    navigation_tour_video_url: config.navigationTourVideoUrl(),
  };
};

/** "saved_snippets", in id order. */
export const savedSnippetsState: StateBuilder = async (ctx) => {
  if (!ctx.want('saved_snippets')) return {};
  const snippets = ctx.user ? await userDataStore.listSavedSnippetsOfUser(ctx.user.id) : [];
  return { saved_snippets: snippets.map(toApiSavedSnippet) };
};

/** "navigation_views": `name` is null for built-in views, as upstream's. */
export const navigationViewsState: StateBuilder = async (ctx) => {
  if (!ctx.want('navigation_views')) return {};
  const views = ctx.user ? await navigationViewsStore.listNavigationViewsOfUser(ctx.user.id) : [];
  return { navigation_views: views.map(toApiNavigationView) };
};
