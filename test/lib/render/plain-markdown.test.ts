// renderPlainMarkdown: what its profile-field flavour does differently from a message's rendering
// (quotes escaped, bare URLs linked wherever they end, even inside emphasis), and what short user
// text must never do (run a javascript: link). The Markdown both flavours share is
// render.test.ts's, through renderMessage.
import { renderPlainMarkdown } from '../../../lib/render';

describe('renderPlainMarkdown', () => {
  it.each([
    ['a link, its URL escaped', '[Zulip](https://zulip.com/a_b?x=1&y=2)', '<p><a href="https://zulip.com/a_b?x=1&amp;y=2">Zulip</a></p>'],
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
    ['blank input', '  \n \n', ''],
  ])('renders %s', (_what, source, html) => {
    expect(renderPlainMarkdown(source)).toBe(html);
  });

  it('renders emoji in profile-field texts too', () => {
    expect(renderPlainMarkdown('Hi :wave:')).toBe(
      '<p>Hi <span aria-label="wave" class="emoji emoji-1f44b" role="img" title="wave">:wave:</span></p>',
    );
  });
});
