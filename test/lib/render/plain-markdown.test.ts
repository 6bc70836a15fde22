import { renderPlainMarkdown } from '../../../lib/render';

describe('renderPlainMarkdown', () => {
  it.each([
    ['a paragraph', 'Apples', '<p>Apples</p>'],
    ['bold and italic together', '***beware*** of jealousy...', '<p><strong><em>beware</em></strong> of jealousy...</p>'],
    ['italic', '*short* text data', '<p><em>short</em> text data</p>'],
    ['strikethrough and bold', '~~short~~ **long** text data', '<p><del>short</del> <strong>long</strong> text data</p>'],
    ['inline code, left as written', 'run `*x* <y>`', '<p>run <code>*x* &lt;y&gt;</code></p>'],
    [
      'a list right after a paragraph line',
      'I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius',
      '<p>I am:</p>\n<ul>\n<li>The prince of Denmark</li>\n<li>Nephew to the usurping Claudius</li>\n</ul>',
    ],
    ['dash lists', '- one\n- two', '<ul>\n<li>one</li>\n<li>two</li>\n</ul>'],
    ['two paragraphs', 'one\n\ntwo', '<p>one</p>\n<p>two</p>'],
    ['a line break inside a paragraph', 'one\ntwo', '<p>one<br>\ntwo</p>'],
    ['a link', '[Zulip](https://zulip.com/a_b?x=1&y=2)', '<p><a href="https://zulip.com/a_b?x=1&amp;y=2">Zulip</a></p>'],
    [
      'a bare URL, without the closing period',
      'See https://zulip.com/a_b.',
      '<p>See <a href="https://zulip.com/a_b">https://zulip.com/a_b</a>.</p>',
    ],
    ['a bold bare URL', '**https://zulip.com**', '<p><strong><a href="https://zulip.com">https://zulip.com</a></strong></p>'],
    ['HTML, escaped', '<script>alert("x")</script> & co', '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</p>'],
    ['a link with a javascript: URL, as text', '[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
    [
      'an attribute break-out attempt in a link',
      '[x](https://a.com/"onmouseover="y)',
      '<p>[x](<a href="https://a.com/">https://a.com/</a>&quot;onmouseover=&quot;y)</p>',
    ],
    ['an unmatched asterisk', '2 * 3 = 6', '<p>2 * 3 = 6</p>'],
    ['blank input', '  \n \n', ''],
  ])('renders %s', (_what, source, html) => {
    expect(renderPlainMarkdown(source)).toBe(html);
  });
});
