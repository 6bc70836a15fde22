// Text as HTML, for every page and email (lib/web/html.ts builds pages on it; lib/models/invite.ts
// writes the invitation email).

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/**
 * Text as HTML: safe in element content and in quoted attribute values. Upstream's escaping
 * (Python's html.escape, Django's escape): the same text in a page, a highlighted search result
 * or a mention's name.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
