// The /emails/ page of development mode: each sent email's subject, sender, recipients, time and
// text body, with the body's addresses as working links (the invitation's /join/<key>/ link).
import type { SentEmail } from '../store/emails';
import { escapeHtml, htmlPage } from './html';

// An address ends before the punctuation that ends its sentence ("… on http://localhost:3000.").
const URL_PATTERN = /https?:\/\/[^\s<>"]*[^\s<>".,;:!?)]/g;

/** Escaped text with each http(s) address made a link. */
const linkify = (text: string): string => {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    out += escapeHtml(text.slice(last, match.index)) + `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return out + escapeHtml(text.slice(last));
};

const renderEmail = (email: SentEmail): string =>
  [
    '<article>',
    `<h2>${escapeHtml(email.subject)}</h2>`,
    '<dl>',
    `<dt>From</dt><dd>${escapeHtml(email.from)}</dd>`,
    `<dt>To</dt><dd>${escapeHtml(email.to.join(', '))}</dd>`,
    `<dt>Sent</dt><dd><time datetime="${new Date(email.at * 1000).toISOString()}">${new Date(email.at * 1000).toUTCString()}</time></dd>`,
    '</dl>',
    `<pre style="white-space: pre-wrap">${linkify(email.text)}</pre>`,
    '</article>',
    '<hr>',
  ].join('\n');

/** The whole page: the emails, newest first, or a line saying there are none yet. */
export const devEmailsPage = (emails: SentEmail[]): string =>
  htmlPage(
    'Emails sent (development)',
    [
      '<main>',
      '<h1>Emails sent</h1>',
      '<p>The emails this development server has sent, newest first. Nothing here left this machine.</p>',
      emails.length === 0 ? '<p>No emails have been sent yet.</p>' : emails.map(renderEmail).join('\n'),
      '</main>',
    ].join('\n'),
  );
