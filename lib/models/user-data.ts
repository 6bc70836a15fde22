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
