// What every server-rendered page and HTML email shares: escaping text into HTML, and the page
// frame (language, character set, viewport, title).

/** Escapes text for HTML content and double-quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A whole HTML document around an already-escaped body. */
export const htmlPage = (title: string, body: string): string =>
  [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '</head>',
    `<body>\n${body}\n</body>`,
    '</html>',
  ].join('\n');
