// HTML built from templates with every interpolated value escaped: `html` returns SafeHtml, and
// only SafeHtml (or a list of it) is inserted as it is. A page never concatenates strings into HTML.
import { escapeHtml } from '../models/html';

export { escapeHtml };

/** Markup that is already safe to insert (built by `html`, or escaped). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = SafeHtml | string | number | undefined | null | false | readonly Interpolated[];

const render = (value: Interpolated): string => {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
};

/**
 * A template of markup: strings and numbers are escaped, SafeHtml is kept, lists are joined, and
 * undefined, null and false are left out (for `${cond && html`...`}`).
 */
export const html = (strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml =>
  new SafeHtml(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));

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
