// A small, safe Markdown renderer for short user text (custom profile field values), producing
// the HTML upstream's renderer gives for the common cases. Supported:
//   - paragraphs separated by blank lines: <p>…</p>; a single newline inside one is <br>
//   - bullet lists: lines starting with "* ", "- " or "+ " (also right after a paragraph line)
//   - **bold**, *italic*, ***both***, ~~strikethrough~~, `code`
//   - links: [text](http(s)://… or mailto:…) and bare http(s):// URLs
// Everything else is text: every <, >, & and " of the input is escaped, and only the tags above
// (with href values taken from the accepted URL forms) are ever produced.

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Placeholders keep already-rendered spans (code, links) away from the emphasis rules. The
// private-use characters cannot survive escaping as anything else, and are stripped from input.
const HOLE = '\uE000';
const HOLE_PATTERN = /\uE000(\d+)\uE000/g;

const BARE_URL = /\bhttps?:\/\/[^\s<>"]+/g;
const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s()<>"]+|mailto:[^\s()<>"]+)\)/g;
const CODE = /`([^`\n]+)`/g;

/** A bare URL ends before trailing punctuation that belongs to the sentence. */
const splitTrailingPunctuation = (url: string): [string, string] => {
  const match = /[.,;:!?)\]'*~]+$/.exec(url);
  return match ? [url.slice(0, match.index), match[0]] : [url, ''];
};

const emphasis = (escaped: string): string =>
  escaped
    .replace(/\*\*\*(?=\S)([^*]*?\S)\*\*\*/g, '<strong><em>$1</em></strong>')
    .replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/\*(?=\S)([^*]*?\S)\*/g, '<em>$1</em>')
    .replace(/~~(?=\S)([^~]*?\S)~~/g, '<del>$1</del>');

const renderInline = (text: string): string => {
  const spans: string[] = [];
  const hold = (html: string): string => `${HOLE}${spans.push(html) - 1}${HOLE}`;
  let out = text.replace(/\uE000/g, '');
  out = out.replace(CODE, (_m, code: string) => hold(`<code>${escapeHtml(code)}</code>`));
  out = out.replace(LINK, (_m, label: string, url: string) => hold(`<a href="${escapeHtml(url)}">${emphasis(escapeHtml(label))}</a>`));
  out = out.replace(BARE_URL, (raw: string) => {
    const [url, rest] = splitTrailingPunctuation(raw);
    return hold(`<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`) + rest;
  });
  out = emphasis(escapeHtml(out));
  return out.replace(HOLE_PATTERN, (_m, i: string) => spans[Number(i)]);
};

const LIST_ITEM = /^ {0,3}[*+-][ \t]+(.*)$/;

/** Renders one block (no blank lines inside): runs of list items and runs of text lines. */
const renderBlock = (lines: string[]): string[] => {
  const html: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (LIST_ITEM.test(lines[i])) {
      const items: string[] = [];
      for (; i < lines.length && LIST_ITEM.test(lines[i]); i += 1) items.push(`<li>${renderInline(LIST_ITEM.exec(lines[i])![1].trim())}</li>`);
      html.push(['<ul>', ...items, '</ul>'].join('\n'));
    } else {
      const text: string[] = [];
      for (; i < lines.length && !LIST_ITEM.test(lines[i]); i += 1) text.push(renderInline(lines[i].trim()));
      html.push(`<p>${text.join('<br>\n')}</p>`);
    }
  }
  return html;
};

/** The HTML of a short Markdown text; "" for empty or blank input. */
export const renderMarkdown = (source: string): string => {
  const blocks: string[][] = [[]];
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') blocks.push([]);
    else blocks[blocks.length - 1].push(line);
  }
  return blocks
    .filter((b) => b.length > 0)
    .flatMap(renderBlock)
    .join('\n');
};
