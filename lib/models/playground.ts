/**
 * A code playground (upstream's RealmPlayground): where a code block of a language can be opened,
 * `urlTemplate` an RFC 6570 template whose one variable is `code`.
 */
export type Playground = { id: number; realmId: number; name: string; pygmentsLanguage: string; urlTemplate: string };

/** The API's shape (register's `realm_playgrounds`, the `realm_playgrounds` event). */
export const toApiPlayground = (p: Playground): Record<string, unknown> => ({
  id: p.id,
  name: p.name,
  pygments_language: p.pygmentsLanguage,
  url_template: p.urlTemplate,
});

/** Playgrounds in creation order (upstream's list is in id order). */
export const sortPlaygrounds = (playgrounds: Playground[]): Playground[] => [...playgrounds].sort((a, b) => a.id - b.id);
