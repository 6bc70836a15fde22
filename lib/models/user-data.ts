// A user's personal objects that register returns as they are stored.

export type OnboardingStep = { type: string; name: string };

export type SavedSnippet = { id: number; userId: number; title: string; content: string; dateCreated: number };

/** A navigation view; `name` is null for built-in views (their fragment names them). */
export type NavigationView = { userId: number; fragment: string; isPinned: boolean; name: string | null };
