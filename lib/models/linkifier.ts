/** A linkifier: a regular expression whose matches become links built from a URL template. */
export type Linkifier = {
  id: number;
  realmId: number;
  order: number;
  pattern: string;
  urlTemplate: string;
};

/** Linkifiers in matching order: by `order`, ties by id (creation order), as upstream. */
export const sortLinkifiers = (linkifiers: Linkifier[]): Linkifier[] => [...linkifiers].sort((a, b) => a.order - b.order || a.id - b.id);

export const toApiLinkifier = (l: Linkifier): Record<string, unknown> => ({ pattern: l.pattern, url_template: l.urlTemplate, id: l.id });
