// A user's personal objects that register returns as they are stored.

export type OnboardingStep = { type: string; name: string };

export type SavedSnippet = { id: number; userId: number; title: string; content: string; dateCreated: number };

/** Upstream's SavedSnippet.MAX_TITLE_LENGTH, in characters (content is bounded by MAX_MESSAGE_LENGTH). */
export const MAX_SAVED_SNIPPET_TITLE_LENGTH = 60;

/**
 * The most saved snippets one user may keep. Upstream has no bound; ours keeps register's
 * `saved_snippets` (every snippet, each up to 10,000 characters of content) well inside a Lambda
 * response, and the user partition's snippet query small.
 */
export const MAX_SAVED_SNIPPETS_PER_USER = 100;

/** A saved snippet as the API shows it (register, GET /saved_snippets, the `saved_snippets` events). */
export type ApiSavedSnippet = { id: number; title: string; content: string; date_created: number };

export const toApiSavedSnippet = (s: SavedSnippet): ApiSavedSnippet => ({
  id: s.id,
  title: s.title,
  content: s.content,
  date_created: s.dateCreated,
});

/** A navigation view; `name` is null for built-in views (their fragment names them). */
export type NavigationView = { userId: number; fragment: string; isPinned: boolean; name: string | null };

/** The views upstream's web app has built in (its BUILT_IN_VIEW_FRAGMENTS): configurable, never named. */
const BUILT_IN_VIEW_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
]);

export const isBuiltInNavigationView = (fragment: string): boolean => BUILT_IN_VIEW_FRAGMENTS.has(fragment);

/**
 * Bounds of ours (upstream has none): a view's fragment and name in characters, and how many
 * views one user keeps, so that register's `navigation_views` stays small (at most 100 views of
 * about 4 KB each).
 */
export const MAX_NAVIGATION_VIEW_FRAGMENT_LENGTH = 1000;
export const MAX_NAVIGATION_VIEW_NAME_LENGTH = 100;
export const MAX_NAVIGATION_VIEWS_PER_USER = 100;

/** A navigation view as the API shows it (register, GET /navigation_views, the add event): `name` null for built-in views, as upstream's. */
export type ApiNavigationView = { fragment: string; is_pinned: boolean; name: string | null };

export const toApiNavigationView = (v: NavigationView): ApiNavigationView => ({
  fragment: v.fragment,
  is_pinned: v.isPinned,
  name: v.name,
});
