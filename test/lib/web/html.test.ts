import { escapeHtml, html, SafeHtml } from '../../../lib/web/html';
import { field, postForm } from '../../../lib/web/page';
import { isValidCsrfToken, newCsrfToken, csrfFailure } from '../../../lib/http/csrf';

describe('html', () => {
  it('escapes interpolated text, in content and attributes', () => {
    const text = `<b a="1">'&'</b>`;
    expect(html`<p title="${text}">${text}</p>`.value).toBe(
      '<p title="&lt;b a=&quot;1&quot;&gt;&#x27;&amp;&#x27;&lt;/b&gt;">&lt;b a=&quot;1&quot;&gt;&#x27;&amp;&#x27;&lt;/b&gt;</p>',
    );
  });

  it('keeps SafeHtml, joins lists and leaves out undefined, null and false', () => {
    expect(html`${new SafeHtml('<i>x</i>')}${[html`<b>1</b>`, '<2>']}${undefined}${null}${false}${0}`.value).toBe(
      '<i>x</i><b>1</b>&lt;2&gt;0',
    );
  });

  it('escapes every character that matters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#x27;');
  });
});

describe('forms', () => {
  /** Markup without its layout whitespace (Prettier lays the templates out). */
  const squashed = (markup: string) =>
    markup
      .replace(/\s+/g, ' ')
      .replace(/\s*\/?>/g, '>')
      .replace(/>\s+</g, '><');

  it('labels every field by its id and ties its hint to it', () => {
    expect(squashed(field({ name: 'full_name', label: 'Name', hint: 'As shown to others', autocomplete: 'name' }).value)).toBe(
      '<div class="field"><label for="id_full_name">Name</label><input id="id_full_name" name="full_name" type="text" autocomplete="name" required aria-describedby="id_full_name_hint"><p class="hint" id="id_full_name_hint">As shown to others</p></div>',
    );
  });

  it('puts the CSRF token in every POST form', () => {
    const form = postForm({ csrfToken: 'tok"en' }, { action: '/x/', fields: [], submit: 'Go' }).value;
    expect(squashed(form)).toContain('<input type="hidden" name="csrfmiddlewaretoken" value="tok&quot;en">');
  });
});

describe('CSRF tokens', () => {
  // No database here, and no development mode: the signing secret as a deployment sets it.
  beforeAll(() => {
    process.env.UPLOAD_URL_SECRET = 'a unit test secret of at least 32 characters';
  });
  afterAll(() => {
    delete process.env.UPLOAD_URL_SECRET;
  });

  it('are valid only for the session they were made for', () => {
    const token = newCsrfToken('session-a');
    expect(isValidCsrfToken(token, 'session-a')).toBe(true);
    expect(isValidCsrfToken(token, 'session-b')).toBe(false);
    expect(isValidCsrfToken(token, '')).toBe(false);
  });

  it('refuse a field that is not the cookie, even a valid token', () => {
    const a = newCsrfToken('');
    expect(csrfFailure(a, a, '')).toBeUndefined();
    expect(csrfFailure(a, newCsrfToken(''), '')).toBe('CSRF token incorrect.');
    expect(csrfFailure(undefined, a, '')).toBe('CSRF cookie not set.');
    expect(csrfFailure(a, undefined, '')).toBe('CSRF token missing.');
    expect(csrfFailure('x'.repeat(500), 'x'.repeat(500), '')).toBe('CSRF token incorrect.');
  });
});
