// Block-level Markdown, as upstream renders messages: fenced code (``` or ~~~, with `quote` and
// `quoted` fences as block quotes and `spoiler` fences as spoiler blocks), four-space code blocks, `#` headings, horizontal rules, `>`
// block quotes, bullet and numbered lists (also "hanging" right after a paragraph line, nested by
// indentation, loose when items are separated by blank lines), and paragraphs whose single
// newlines become <br>. Blocks are joined by "\n", as upstream serializes them.
import { escapeCode, highlightCode, pygmentsLanguageName } from './highlight';
import { escapeAttribute } from './inline';
import { renderTex } from './tex';

/**
 * Renders a block's inline text. `previews()` hands over the image previews (upstream's
 * message_inline_image divs) of the image links rendered since the last call, each URL once a
 * message, none for links inside a block quote (`quoteDepth` > 0), as upstream.
 */
export type InlineRenderer = ((text: string) => string) & { previews: () => string[]; quoteDepth: number; rich: boolean };

const FENCE = /^ {0,3}(`{3,}|~{3,})[ ]*\{?\.?([a-zA-Z0-9_+\-./#]*)[ ]*([^ ~`][^~`]*)?\}?$/;
const HEADING = /^#{1,6}[ \t]+/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const LIST_ITEM = /^( *)([*+-]|\d+\.)[ \t]+(.*)$/;
const INDENTED = /^(?: {4}|\t)/;

const isBlank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => /^ */.exec(line)![0].length;
const listKind = (marker: string): 'ul' | 'ol' => (/\d/.test(marker) ? 'ol' : 'ul');

/**
 * A code block's first line that names its language the way Python-Markdown's CodeHilite reads
 * it (`#!python`, `#!/usr/bin/python`, `:::python`): upstream highlights such a block in that
 * language, the line kept, without showing the language.
 */
const SHEBANG = /^(?:::+|#!)(?:(?:\/\w+)*[/ ])?([\w#.+-]+)\s*$/;

/**
 * Code as Pygments prints it: trailing spaces cut, &, <, >, " and ' escaped, with Pygments' token
 * spans for a language that has them (highlight.ts) unless the rendering is the plain one, and
 * Pygments' name of a language it knows.
 */
const codeBlock = (lines: string[], language: string, rich: boolean): string => {
  const body = lines.map((l) => l.replace(/\s+$/, ''));
  while (body.length > 0 && body[0] === '') body.shift();
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  const text = body.join('\n');
  const named = language === '' ? undefined : pygmentsLanguageName(language);
  const shebang = language === '' && body.length > 0 ? SHEBANG.exec(body[0]) : null;
  const lexer = named ?? (shebang ? pygmentsLanguageName(shebang[1]) : undefined);
  const code = (rich && lexer !== undefined ? highlightCode(text, lexer) : undefined) ?? escapeCode(text);
  const lang = language === '' ? '' : ` data-code-language="${escapeAttribute(named ?? language)}"`;
  return `<div class="codehilite"${lang}><pre><span></span><code>${code}\n</code></pre></div>`;
};

/**
 * A ```math block as upstream renders it: each paragraph (split at blank lines) in display mode,
 * its own <p>; TeX that KaTeX refuses shows as typed (HTML-escaped, quotes too) in a tex-error span.
 */
const mathBlock = (lines: string[]): string[] =>
  lines
    .join('\n')
    .split('\n\n')
    .filter((tex) => tex.trim() !== '')
    .map((tex) => {
      const html = renderTex(tex, true) ?? `<span class="tex-error">${escapeAttribute(tex).replace(/'/g, '&#x27;')}</span>`;
      return `<p>${html}</p>`;
    });

// Tables (Python-Markdown's tables extension, as upstream enables it): a block that starts with a
// header row holding a |, then a separator row of dashes (with : for alignment), then body rows
// up to a blank line. Cells split at | outside code spans; a row with fewer cells than the header
// gets empty ones, extra cells are dropped.
const TABLE_SEPARATOR = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;

const tableCells = (row: string): string[] => {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let ticks = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '|') {
      cell += '|';
      i += 1;
    } else if (c === '`') {
      let run = 0;
      while (text[i + run] === '`') run += 1;
      ticks = ticks === 0 ? run : ticks === run ? 0 : ticks;
      cell += '`'.repeat(run);
      i += run - 1;
    } else if (c === '|' && ticks === 0) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
};

const isTableStart = (lines: string[], i: number): boolean =>
  lines[i].includes('|') &&
  i + 1 < lines.length &&
  TABLE_SEPARATOR.test(lines[i + 1]) &&
  (lines[i + 1].includes('|') || tableCells(lines[i]).length === 1);

/** The table starting at lines[start] (isTableStart): its HTML and the index after it. */
const parseTable = (lines: string[], start: number, inline: InlineRenderer): [string, number] => {
  const header = tableCells(lines[start]);
  const aligns = tableCells(lines[start + 1]).map((spec) => {
    const left = spec.startsWith(':');
    const right = spec.endsWith(':');
    return left && right ? 'center' : left ? 'left' : right ? 'right' : undefined;
  });
  const cell = (tag: 'th' | 'td', text: string, column: number): string => {
    const align = aligns[column] === undefined ? '' : ` style="text-align: ${aligns[column]};"`;
    return `<${tag}${align}>${inline(text)}</${tag}>`;
  };
  let end = start + 2;
  const rows: string[] = [];
  while (end < lines.length && !isBlank(lines[end])) {
    const cells = tableCells(lines[end]);
    rows.push(`<tr>\n${header.map((_h, column) => cell('td', cells[column] ?? '', column)).join('\n')}\n</tr>`);
    end += 1;
  }
  const head = `<thead>\n<tr>\n${header.map((h, column) => cell('th', h, column)).join('\n')}\n</tr>\n</thead>`;
  const body = rows.length === 0 ? '' : `\n<tbody>\n${rows.join('\n')}\n</tbody>`;
  return [`<table>\n${head}${body}\n</table>${inline.previews().join('')}`, end];
};

/** Fenced blocks whose content is Markdown, so that fences inside them nest. */
const CONTAINERS = new Set(['quote', 'quoted', 'spoiler']);

/**
 * The index of the line that closes a fence opened with `marker` (lines.length when none does):
 * the first line that is the marker alone. Inside a quote or spoiler, another fence (one with a
 * language, or of other characters) opens a nested block whose own closing line is skipped, as
 * in upstream's fence processor.
 */
const fenceEnd = (lines: string[], from: number, marker: string, container: boolean): number => {
  let j = from;
  while (j < lines.length) {
    if (lines[j].trim() === marker) return j;
    const nested = container ? FENCE.exec(lines[j]) : null;
    j = nested ? fenceEnd(lines, j + 1, nested[1], CONTAINERS.has(nested[2])) + 1 : j + 1;
  }
  return lines.length;
};

/** A block quote's content: its links get no image previews. */
const quoted = (lines: string[], inline: InlineRenderer): string => {
  inline.quoteDepth += 1;
  try {
    return renderBlocks(lines, inline).join('\n');
  } finally {
    inline.quoteDepth -= 1;
  }
};

/**
 * A paragraph, then the previews of its image links; a paragraph that is nothing but one image's
 * bare URL is replaced by the preview, as upstream does.
 */
const paragraph = (text: string, inline: InlineRenderer): string => {
  const html = inline(text);
  const previews = inline.previews();
  const bare = /^<a href="[^"]*">([^<]*)<\/a>$/.exec(html);
  if (previews.length === 1 && bare && bare[1] === escapeAttribute(text.trim()).replace(/&quot;/g, '"')) return previews[0];
  return `<p>${html}</p>${previews.length === 0 ? '' : `\n${previews.join('')}`}`;
};

/** Whether a line ends a paragraph (starts another block). */
const startsBlock = (line: string): boolean =>
  FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || LIST_ITEM.test(line) || HR.test(line);

type ListItem = { text: string[]; children: string[] };

/** A list starting at lines[start]: its HTML and the index after it. */
const parseList = (lines: string[], start: number, inline: InlineRenderer): [string, number] => {
  const first = LIST_ITEM.exec(lines[start])!;
  const baseIndent = first[1].length;
  const kind = listKind(first[2]);
  const items: ListItem[] = [];
  let loose = false;
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      let j = i;
      while (j < lines.length && isBlank(lines[j])) j += 1;
      const next = j < lines.length ? LIST_ITEM.exec(lines[j]) : null;
      if (next && next[1].length <= baseIndent + 1 && next[1].length >= baseIndent && listKind(next[2]) === kind) {
        loose = true;
        i = j;
        continue;
      }
      if (j < lines.length && indentOf(lines[j]) > baseIndent && items.length > 0) {
        // A paragraph indented under the item continues it.
        const [html, end] = indentedBody(lines, j, baseIndent, inline);
        items[items.length - 1].children.push(html);
        loose = true;
        i = end;
        continue;
      }
      break;
    }
    const m = LIST_ITEM.exec(line);
    if (m && m[1].length < baseIndent) break;
    if (m && m[1].length <= baseIndent + 1) {
      if (listKind(m[2]) !== kind) break;
      items.push({ text: [m[3]], children: [] });
      i += 1;
      continue;
    }
    if (m && items.length > 0) {
      const [html, end] = parseList(lines, i, inline);
      items[items.length - 1].children.push(html);
      i = end;
      continue;
    }
    if (FENCE.test(line) || (HEADING.test(line) && indentOf(line) <= baseIndent)) break;
    // A continuation line of the item, kept as written (less the item's own indentation).
    items[items.length - 1].text.push(line.replace(/^ {4}/, ''));
    i += 1;
  }
  const startNumber = kind === 'ol' ? Number(/\d+/.exec(first[2])![0]) : 1;
  const open = kind === 'ol' && startNumber !== 1 ? `<ol start="${startNumber}">` : `<${kind}>`;
  const html = items.map((item) => {
    const text = inline(item.text.join('\n'));
    const previews = inline.previews().join('');
    const children = item.children.filter((c) => c !== '');
    if (loose) return `<li>\n<p>${text}</p>\n${previews}${children.map((c) => `${c}\n`).join('')}</li>`;
    return `<li>${text}${previews}${children.map((c) => `${c}\n`).join('')}</li>`;
  });
  return [`${open}\n${html.join('\n')}\n</${kind}>`, i];
};

/** Lines indented deeper than a list item, rendered as that item's blocks. */
const indentedBody = (lines: string[], start: number, baseIndent: number, inline: InlineRenderer): [string, number] => {
  let end = start;
  while (
    end < lines.length &&
    (isBlank(lines[end]) ? end + 1 < lines.length && indentOf(lines[end + 1]) > baseIndent : indentOf(lines[end]) > baseIndent)
  )
    end += 1;
  const cut = Math.min(
    ...lines
      .slice(start, end)
      .filter((l) => !isBlank(l))
      .map(indentOf),
  );
  return [
    renderBlocks(
      lines.slice(start, end).map((l) => l.slice(cut)),
      inline,
    ).join('\n'),
    end,
  ];
};

/** The HTML blocks of a text. */
/** What a fenced code block leaves of a message's text before its alert words are looked for. */
const CODE_BLOCK_PLACEHOLDER = '\u0002code\u0003';

/**
 * The lines of a message with each fenced code block (every fence but a quote or spoiler fence,
 * whose content is Markdown) replaced by one placeholder line, as upstream's fenced-code
 * preprocessor stashes them before its alert-word preprocessor reads the text.
 */
export const stashCodeBlocks = (lines: string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const fence = FENCE.exec(lines[i]);
    if (fence && !CONTAINERS.has(fence[2])) {
      out.push(CODE_BLOCK_PLACEHOLDER);
      i = fenceEnd(lines, i + 1, fence[1], false) + 1;
    } else out.push(lines[i++]);
  }
  return out;
};

export const renderBlocks = (lines: string[], inline: InlineRenderer): string[] => {
  const out: string[] = [];
  let i = 0;
  let afterBlank = true;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i += 1;
      afterBlank = true;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const language = fence[2];
      const j = fenceEnd(lines, i + 1, fence[1], CONTAINERS.has(language));
      const body = lines.slice(i + 1, j);
      if (language === 'quote' || language === 'quoted') {
        out.push(`<blockquote>\n${quoted(body, inline)}\n</blockquote>`);
      } else if (language === 'math' && inline.rich) {
        out.push(...mathBlock(body));
      } else if (language === 'spoiler') {
        const header = renderBlocks([fence[3] ?? ''], inline)
          .map((b) => `${b}\n`)
          .join('');
        const content = renderBlocks(body, inline)
          .map((b) => `${b}\n`)
          .join('');
        out.push(
          `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${content}</div></div>`,
        );
      } else {
        out.push(codeBlock(body, language, inline.rich));
      }
      i = j + 1;
      // A fenced block ends its block, as a blank line does.
      afterBlank = true;
      continue;
    }
    if (afterBlank && INDENTED.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (INDENTED.test(lines[i]) || isBlank(lines[i]))) body.push(lines[i++].replace(/^(?: {4}|\t)/, ''));
      out.push(codeBlock(body, '', inline.rich));
      continue;
    }
    const blockStart = afterBlank;
    afterBlank = false;
    if (blockStart && isTableStart(lines, i)) {
      const [html, end] = parseTable(lines, i, inline);
      out.push(html);
      i = end;
      continue;
    }
    if (HEADING.test(line)) {
      const level = /^#+/.exec(line)![0].length;
      out.push(`<h${level}>${inline(line.replace(/^#+[ \t]+/, '').replace(/[ \t#]*$/, ''))}</h${level}>${inline.previews().join('')}`);
      i += 1;
      continue;
    }
    if (HR.test(line)) {
      out.push('<hr>');
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]) && !FENCE.test(lines[i])) body.push(lines[i++].replace(/^ {0,3}> ?/, ''));
      // A quote of nothing but empty ">" lines is text, as upstream renders it.
      if (body.every(isBlank)) out.push(`<p>${inline(body.map(() => '>').join('\n'))}</p>`);
      else out.push(`<blockquote>\n${quoted(body, inline)}\n</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [html, end] = parseList(lines, i, inline);
      out.push(html);
      i = end;
      continue;
    }
    const text: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && (text.length === 0 || !startsBlock(lines[i]))) text.push(lines[i++]);
    out.push(paragraph(text.join('\n').replace(/^\s+/, ''), inline));
  }
  return out;
};
