import { MAX_HTML_BYTES_RICH, referencesIn, renderMessage, renderPlainMarkdown, topicKey, type RenderInput } from '../../../lib/render';

const NONE: RenderInput = { users: [], groups: [], channels: [], linkifiers: [] };
const html = (content: string, input: RenderInput = NONE): string => renderMessage(content, input).html;

// Cases from upstream's zerver/tests/fixtures/markdown_test_cases.json (input → expected_output),
// a few by hand; all of them run in upstream-cases.test.ts.
describe('renderMessage renders upstream Markdown test cases exactly', () => {
  it.each([
    ['empty', '', ''],
    ['basic_paragraph', 'test_input', '<p>test_input</p>'],
    ['normal_text_test', "it's lunch time", "<p>it's lunch time</p>"],
    [
      'codeblock_hilite_invented_language',
      '``` inventedlanguage\ndef speak(self):\n    x = 1\n```',
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
    ],
    [
      'ampampamp',
      '& &amp; &amp;amp;\n~~~~\n& &amp; &amp;amp;\n~~~~\n    & &amp; &amp;amp;',
      '<p>&amp; &amp; &amp;amp;</p>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>',
    ],
    [
      'codeblock_multiline',
      'Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\n\n    z = 3\n~~~~\nAnd all was good.',
      '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n\n    z = 3\n</code></pre></div>\n<p>And all was good.</p>',
    ],
    [
      'codeblock_trailing_whitespace',
      'Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n\n    z = 3       \n~~~~\nAnd all was good.',
      '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n\n    z = 3\n</code></pre></div>\n<p>And all was good.</p>',
    ],
    ['inline_code_spaces', '` outer ` ```    space    ```', '<p><code> outer </code> <code>    space    </code></p>'],
    ['inline_code_html_entities', '`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
    [
      'codeblock_backticks',
      '\n```\nfenced code\n```\n\n```inline code```\n',
      '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>\n<p><code>inline code</code></p>',
    ],
    [
      'hanging_multi_codeblock',
      'Hamlet said:\n~~~~\ndef speak(self):\n    x = 1\n# Comment to make this code block longer to test Trac #1162\n~~~~\n\nThen he mentioned ````y = 4 + x**2```` and\n~~~~\ndef foobar(self):\n    return self.baz()',
      '<p>Hamlet said:</p>\n<div class="codehilite"><pre><span></span><code>def speak(self):\n    x = 1\n# Comment to make this code block longer to test Trac #1162\n</code></pre></div>\n<p>Then he mentioned <code>y = 4 + x**2</code> and</p>\n<div class="codehilite"><pre><span></span><code>def foobar(self):\n    return self.baz()\n</code></pre></div>',
    ],
    [
      'fenced_normal_quote',
      'Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~',
      '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
    ],
    [
      'fenced_nested_quote',
      'Hamlet said:\n~~~ quote\nPolonius said:\n> This above all: to thine ownself be true,\nAnd it must follow, as the night the day,\nThou canst not then be false to any man.\n\nWhat good advice!\n~~~',
      '<p>Hamlet said:</p>\n<blockquote>\n<p>Polonius said:</p>\n<blockquote>\n<p>This above all: to thine ownself be true,<br>\nAnd it must follow, as the night the day,<br>\nThou canst not then be false to any man.</p>\n</blockquote>\n<p>What good advice!</p>\n</blockquote>',
    ],
    ['empty_single_blockquote', '>', '<p>&gt;</p>'],
    [
      'empty_multiple_blockquote',
      '>>>>>',
      '<blockquote>\n<blockquote>\n<blockquote>\n<blockquote>\n<p>&gt;</p>\n</blockquote>\n</blockquote>\n</blockquote>\n</blockquote>',
    ],
    ['non_empty_blockquote', '>\n>\ntext', '<blockquote>\n<p>text</p>\n</blockquote>'],
    [
      'multiple_blockquote_with_angular_bracket',
      '> Hello World!\n\n> Hello Universe!',
      '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>',
    ],
    [
      'multiple_blockquote_with_backticks_and_angular_bracket',
      '```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.',
      '<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>',
    ],
    [
      'multiple_blockquote_with_quote_and_reply',
      'Hamlet said:\n~~~quote\nCan we talk ?\n~~~\n> Yes !!\n\nWelcome to Open Source.',
      '<p>Hamlet said:</p>\n<blockquote>\n<p>Can we talk ?</p>\n</blockquote>\n<blockquote>\n<p>Yes !!</p>\n</blockquote>\n<p>Welcome to Open Source.</p>',
    ],
    ['fenced_quote_with_hashtag', '```quote\n# line 1\n#line 2\n```', '<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>'],
    [
      'fenced_quote_and_list',
      'Before:\n* One.\n* Two.\n\n```quote\nLists should work after a quote\n```\n\nAfter:\n* One.\n* Two.',
      '<p>Before:</p>\n<ul>\n<li>One.</li>\n<li>Two.</li>\n</ul>\n<blockquote>\n<p>Lists should work after a quote</p>\n</blockquote>\n<p>After:</p>\n<ul>\n<li>One.</li>\n<li>Two.</li>\n</ul>',
    ],
    [
      'dangerous_block_having_backticks',
      '``` one ```\n\n``` two ```\n\n~~~~\nx = 1',
      '<p><code> one </code></p>\n<p><code> two </code></p>\n<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>',
    ],
    [
      'four_space_code_block',
      '    def foo(): pass',
      '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>',
    ],
    ['two_space_not_code_block', '  notcode', '<p>notcode</p>'],
    ['hashheading_enabled', '# Hello world', '<h1>Hello world</h1>'],
    ['hashheading_needs_spaces', '#Hello world', '<p>#Hello world</p>'],
    ['hashheading_multiple_spaces', '#  Hello world', '<h1>Hello world</h1>'],
    ['hashheading_6_levels', '###### Hello world', '<h6>Hello world</h6>'],
    ['hashheading_7_levels', '####### Hello world', '<p>####### Hello world</p>'],
    [
      'reference_links_disabled',
      'Hello [world]\n\n[world]: https://google.com',
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>',
    ],
    [
      'ulist_standard_1',
      'Some text with a list:\n\n* One item\n* Two items\n* Three items',
      '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>',
    ],
    [
      'ulist_standard_3',
      'Some text with a list:\n\n+ One item\n+ Two items\n+ Three items',
      '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>',
    ],
    [
      'list_complexly_nested',
      'This is a heavily nested OL\n1. level-1\n  2. level-2\n    3. level-3\n    3. level-3a\n  2. level-2a\n2. level-1a\n',
      '<p>This is a heavily nested OL</p>\n<ol>\n<li>level-1<ol start="2">\n<li>level-2<ol start="3">\n<li>level-3</li>\n<li>level-3a</li>\n</ol>\n</li>\n<li>level-2a</li>\n</ol>\n</li>\n<li>level-1a</li>\n</ol>',
    ],
    [
      'ulist_mixed_bullets',
      'Combine four lists:\n\n* One\n- Two\n+ Three\n- Four\n- Five',
      '<p>Combine four lists:</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n<li>Three</li>\n<li>Four</li>\n<li>Five</li>\n</ul>',
    ],
    [
      'ulist_hanging_mixed',
      'Plain list\n\n* Alpha\n\n* Beta\n\nThen hang it off:\n* Ypsilon\n* Zeta',
      '<p>Plain list</p>\n<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>\n<p>Then hang it off:</p>\n<ul>\n<li>Ypsilon</li>\n<li>Zeta</li>\n</ul>',
    ],
    [
      'ulist_hanging_quoted',
      '```quote\nSome text with a hanging list inside quote:\n* one\n* two\n* three\n```',
      '<blockquote>\n<p>Some text with a hanging list inside quote:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n<li>three</li>\n</ul>\n</blockquote>',
    ],
    [
      'ulist_nested_ulist_two_space_indent',
      'Nested list\n* I am outer list\n  * I am inner nested list first item\n  * I am inner nested list second item',
      '<p>Nested list</p>\n<ul>\n<li>I am outer list<ul>\n<li>I am inner nested list first item</li>\n<li>I am inner nested list second item</li>\n</ul>\n</li>\n</ul>',
    ],
    [
      'ulist_list_two_space_indent',
      '* I am outer list\n  I am something inside',
      '<ul>\n<li>I am outer list<br>\n  I am something inside</li>\n</ul>',
    ],
    [
      'ulist_codeblock_interference',
      "* One \n  * Two\n\n    Two continued\n    This shouldn't be a code block\n",
      "<ul>\n<li>One <ul>\n<li>\n<p>Two</p>\n<p>Two continued<br>\nThis shouldn't be a code block</p>\n</li>\n</ul>\n</li>\n</ul>",
    ],
    [
      'ulist_codeblock',
      '~~~\nint x = 3\n* 4;\n~~~',
      '<div class="codehilite"><pre><span></span><code>int x = 3\n* 4;\n</code></pre></div>',
    ],
    [
      'malformed_fence',
      '~~~~~~~~xxxxxxxxx:  xxxxxxxxxxxx xxxxx x xxxxxxxx~~~~~~',
      '<p>~~~~~~~~xxxxxxxxx:  xxxxxxxxxxxx xxxxx x xxxxxxxx~~~~~~</p>',
    ],
    ['strikthrough_basic', 'I like ~~software~~ hardware', '<p>I like <del>software</del> hardware</p>'],
    [
      'strikthrough_multiword_with_space_in_between',
      'I ~~ like software ~~ love hardware',
      '<p>I <del> like software </del> love hardware</p>',
    ],
    ['strikthrough_link', '~~test http://xx.xx link~~', '<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>'],
    ['underscore_disabled', '_foo_', '<p>_foo_</p>'],
    ['emphasis_text', '*foo*', '<p><em>foo</em></p>'],
    ['emphasis_code', 'const char *x = (char *)y', '<p>const char *x = (char *)y</p>'],
    ['emphasis_with_space', 'A *foo bar* is a *baz quux*', '<p>A <em>foo bar</em> is a <em>baz quux</em></p>'],
    ['emphasis_with_html', '*<h1>Hello world</h1>*', '<p><em>&lt;h1&gt;Hello world&lt;/h1&gt;</em></p>'],
    ['underscore_strong_disabled', '__foo__', '<p>__foo__</p>'],
    ['star_strong', '**foo**', '<p><strong>foo</strong></p>'],
    ['star_strong_em', '***foo***', '<p><strong><em>foo</em></strong></p>'],
    ['numbered_list', '1. A\n2. B\n  3. C', '<ol>\n<li>A</li>\n<li>B<ol start="3">\n<li>C</li>\n</ol>\n</li>\n</ol>'],
    ['auto_renumbered_list_from', '3. A\n3. B\n3. C\n3. D', '<ol start="3">\n<li>A</li>\n<li>B</li>\n<li>C</li>\n<li>D</li>\n</ol>'],
    [
      'linkify_interference',
      'link: xx, x xxxxx xx xxxx xx\n\n[xxxxx #xx](http://xxxxxxxxx:xxxx/xxx/xxxxxx%78xxxx/xx/):**xxxxxxx**\n\nxxxxxxx xxxxx xxxx xxxxx:\n`xxxxxx`: xxxxxxx\n`xxxxxx`: xxxxx\n`xxxxxx`: xxxxx xxxxx',
      '<p>link: xx, x xxxxx xx xxxx xx</p>\n<p><a href="http://xxxxxxxxx:xxxx/xxx/xxxxxx%78xxxx/xx/">xxxxx #xx</a>:<strong>xxxxxxx</strong></p>\n<p>xxxxxxx xxxxx xxxx xxxxx:<br>\n<code>xxxxxx</code>: xxxxxxx<br>\n<code>xxxxxx</code>: xxxxx<br>\n<code>xxxxxx</code>: xxxxx xxxxx</p>',
    ],
    ['only_non_image_link', 'https://github.com', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['link_with_text', '[hello](https://github.com)', '<p><a href="https://github.com">hello</a></p>'],
    ['link_without_text', '[](https://github.com)', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['link_with_empty_text', '[  ](https://github.com)', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['nl2br', 'test\nbar', '<p>test<br>\nbar</p>'],
    ['nl2br_trailing_space', 'test  ', '<p>test  </p>'],
    [
      'multiline_strong',
      "You can check out **any time you'd like\nBut you can never leave**",
      "<p>You can check out **any time you'd like<br>\nBut you can never leave**</p>",
    ],
    ['not_emoji', ':not_an_emoji:', '<p>:not_an_emoji:</p>'],
    ['safe_html', '<h1>stay normal</h1> thanks', '<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>'],
    [
      'safe_html_nested_script_tag',
      '<<script>script>evil()<</script>/script>',
      '<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>',
    ],
    ['safe_html_unclosed_tag_and_quotes', '<script src="http://xx.com/xss.js"<b>', '<p>&lt;script src="http://xx.com/xss.js"&lt;b&gt;</p>'],
    [
      'safe_html_in_code',
      '~~~\n<h1>stay normal</h1>',
      '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>',
    ],
    [
      'ulist_with_inline_code',
      'what I did:\n\n* install cmake\n* run `cmake-gui ..` in `c:\\zulip\\zulip-desktop\\msvcbuild`\n* opened vs2013 \n',
      '<p>what I did:</p>\n<ul>\n<li>install cmake</li>\n<li>run <code>cmake-gui ..</code> in <code>c:\\zulip\\zulip-desktop\\msvcbuild</code></li>\n<li>opened vs2013 </li>\n</ul>',
    ],
    [
      'auto_renumbered_list_blankline',
      '1. A\n\n1. B\n\n1. C\n\n1. D\nordinary paragraph\n1. AA\n\n1. BB',
      '<ol>\n<li>\n<p>A</p>\n</li>\n<li>\n<p>B</p>\n</li>\n<li>\n<p>C</p>\n</li>\n<li>\n<p>D<br>\nordinary paragraph</p>\n</li>\n<li>\n<p>AA</p>\n</li>\n<li>\n<p>BB</p>\n</li>\n</ol>',
    ],
    [
      'spoilers_fenced_spoiler',
      '```spoiler header\ncontent\n```\noutside spoiler\n',
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
    ],
    [
      'spoilers_empty_header',
      '```spoiler\ncontent\n```\noutside spoiler\n',
      '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
    ],
    [
      'spoilers_script_tags',
      '```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```',
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
    ],
    [
      'spoilers_block_quote',
      '~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote',
      '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>',
    ],
    [
      'embedded_link_inside_Bold',
      '**[Static types in Python](https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy)**',
      '<p><strong><a href="https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy">Static types in Python</a></strong></p>',
    ],
    [
      'embedded_link_inside_Italic',
      '*[Static types in Python](https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy)*',
      '<p><em><a href="https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy">Static types in Python</a></em></p>',
    ],
    [
      'edge_case_embedded_link_inside_Bold',
      '<h1>**<h1>[<h2>Static types in Python</h2>](https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy)</h1>**</h1>',
      '<p>&lt;h1&gt;<strong>&lt;h1&gt;<a href="https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy">&lt;h2&gt;Static types in Python&lt;/h2&gt;</a>&lt;/h1&gt;</strong>&lt;/h1&gt;</p>',
    ],
    [
      'telephone_sms_link',
      '[call me](tel:+14155551234) [or maybe not](sms:+14155551234)',
      '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or maybe not</a></p>',
    ],
    [
      'spoilers_with_header_markdown',
      '```spoiler [Header](https://example.com) :smile:\ncontent\n```',
      '<div class="spoiler-block"><div class="spoiler-header">\n<p><a href="https://example.com">Header</a> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
    ],
  ])('%s', (_name, input, expected) => {
    expect(html(input)).toBe(expected);
  });
});

// upstream's linkify_tests from the same file: (input, expected with %s for the link, URL).
describe('renderMessage links bare URLs as upstream', () => {
  it.each([
    ['http://www.google.com', '<p>%s</p>', 'http://www.google.com'],
    ['http://www.theregister.co.uk/foo/bar', '<p>%s</p>', 'http://www.theregister.co.uk/foo/bar'],
    [' some text https://www.google.com/', '<p>some text %s</p>', 'https://www.google.com/'],
    ['http://foo.com/blah_blah/', '<p>%s</p>', 'http://foo.com/blah_blah/'],
    ['with www www.zulip.com/foo ok?', '<p>with www %s ok?</p>', 'www.zulip.com/foo'],
    ['end of sentence https://t.co.', '<p>end of sentence %s.</p>', 'https://t.co'],
    ['(Something like http://foo.com/blah_blah)', '<p>(Something like %s)</p>', 'http://foo.com/blah_blah'],
    ['end with a quote www.google.com"', '<p>end with a quote %s"</p>', 'www.google.com'],
    ['end with an exclamation www.google.com!', '<p>end with an exclamation %s!</p>', 'www.google.com'],
    ['from http://supervisord.org/running.html:', '<p>from %s:</p>', 'http://supervisord.org/running.html'],
    ['at https://zulip.com/api. Check it!', '<p>at %s. Check it!</p>', 'https://zulip.com/api'],
    ['http://localhost:9991/?show_debug=1', '<p>%s</p>', 'http://localhost:9991/?show_debug=1'],
    ['anyone before? (http://a.cc/i/FMXO)', '<p>anyone before? (%s)</p>', 'http://a.cc/i/FMXO'],
    ['(http://en.wikipedia.org/wiki/Each-way_(bet))', '<p>(%s)</p>', 'http://en.wikipedia.org/wiki/Each-way_(bet)'],
    [
      '(http://en.wikipedia.org/wiki/Each-way_(bet)_(more_parens))',
      '<p>(%s)</p>',
      'http://en.wikipedia.org/wiki/Each-way_(bet)_(more_parens)',
    ],
    ['http://en.wikipedia.org/wiki/Qt_(framework)', '<p>%s</p>', 'http://en.wikipedia.org/wiki/Qt_(framework)'],
    ['http://fr.wikipedia.org/wiki/Fichier:SMirC-facepalm.svg', '<p>%s</p>', 'http://fr.wikipedia.org/wiki/Fichier:SMirC-facepalm.svg'],
    ['python class views.py is', '<p>python class views.py is</p>', ''],
    ['readme.md', '<p>readme.md</p>', ''],
  ])('%s', (input, template, url) => {
    const href = url.startsWith('http') ? url : `http://${url}`;
    expect(html(input)).toBe(template.replace('%s', `<a href="${href}">${url}</a>`));
  });
});

const ORG: RenderInput = {
  users: [
    { id: 10, fullName: 'King Hamlet', isActive: true },
    { id: 11, fullName: "Cordelia, Lear's daughter", isActive: true },
    { id: 12, fullName: 'Mark Twin', isActive: true },
    { id: 13, fullName: 'Mark Twin', isActive: true },
    { id: 14, fullName: 'Former User', isActive: false },
  ],
  groups: [
    { id: 30, name: 'hamletcharacters', deactivated: false },
    { id: 31, name: 'old group', deactivated: true },
  ],
  channels: [
    { id: 3, name: 'Denmark' },
    { id: 4, name: 'Verona (old).x' },
  ],
  linkifiers: [
    { pattern: '#(?P<id>[0-9]{2,8})', urlTemplate: 'https://trac.example.com/ticket/{id}' },
    { pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/{org}/{repo}/pull/{id}' },
  ],
  latestInTopic: new Map([[topicKey(3, 'some topic'), 77]]),
};

describe('renderMessage user mentions', () => {
  it('renders a mention by full name, case-insensitively, with the stored name', () => {
    const r = renderMessage('@**king hamlet** hi', ORG);
    expect(r.html).toBe('<p><span class="user-mention" data-user-id="10">@King Hamlet</span> hi</p>');
    expect(r.mentionedUserIds).toEqual([10]);
  });

  it('renders a mention by name and id, and by id alone', () => {
    expect(html('@**Mark Twin|13** and @**|12**', ORG)).toBe(
      '<p><span class="user-mention" data-user-id="13">@Mark Twin</span> and <span class="user-mention" data-user-id="12">@Mark Twin</span></p>',
    );
  });

  it('leaves an ambiguous name as text (two users share it)', () => {
    const r = renderMessage('@**Mark Twin**', ORG);
    expect(r.html).toBe('<p>@<strong>Mark Twin</strong></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('leaves a name|id pair whose name is not that user’s as text', () => {
    expect(renderMessage('@**King Hamlet|12**', ORG).mentionedUserIds).toEqual([]);
  });

  it('renders a silent mention without the @ and without a mention flag', () => {
    const r = renderMessage('@_**King Hamlet**', ORG);
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('renders a deactivated user’s mention as silent', () => {
    const r = renderMessage('@**Former User**', ORG);
    expect(r.html).toBe('<p><span class="user-mention silent" data-user-id="14">Former User</span></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('escapes the name and requires a boundary before the @', () => {
    expect(html("@**Cordelia, Lear's daughter**", ORG)).toBe(
      '<p><span class="user-mention" data-user-id="11">@Cordelia, Lear\'s daughter</span></p>',
    );
    expect(renderMessage('foo@**King Hamlet**', ORG).mentionedUserIds).toEqual([]);
  });

  it('does not count a mention inside code', () => {
    const r = renderMessage('`@**King Hamlet**`\n```\n@**King Hamlet**\n```', ORG);
    expect(r.html).toBe(
      '<p><code>@**King Hamlet**</code></p>\n<div class="codehilite"><pre><span></span><code>@**King Hamlet**\n</code></pre></div>',
    );
    expect(r.mentionedUserIds).toEqual([]);
    expect(r.references.userNames).toEqual([]);
  });
});

describe('renderMessage wildcard mentions', () => {
  it.each(['all', 'everyone', 'channel', 'stream'])('renders @**%s** as a channel wildcard mention', (word) => {
    const r = renderMessage(`@**${word}** test`, ORG);
    expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${word}</span> test</p>`);
    expect([r.channelWildcardMentioned, r.topicWildcardMentioned]).toEqual([true, false]);
  });

  it('renders @**topic** as a topic wildcard mention', () => {
    const r = renderMessage('@**topic** test', ORG);
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span> test</p>');
    expect([r.channelWildcardMentioned, r.topicWildcardMentioned]).toEqual([false, true]);
  });

  it('renders silent wildcards without setting a wildcard flag', () => {
    const r = renderMessage('@_**all** @_**topic**', ORG);
    expect(r.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
    expect([r.channelWildcardMentioned, r.topicWildcardMentioned]).toEqual([false, false]);
  });
});

describe('renderMessage user group mentions', () => {
  it('renders a group mention case-insensitively and reports the group', () => {
    const r = renderMessage('@*HamletCharacters* look', ORG);
    expect(r.html).toBe('<p><span class="user-group-mention" data-user-group-id="30">@hamletcharacters</span> look</p>');
    expect(r.mentionedGroupIds).toEqual([30]);
  });

  it('renders a silent group mention without reporting the group', () => {
    const r = renderMessage('@_*hamletcharacters*', ORG);
    expect(r.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="30">hamletcharacters</span></p>');
    expect(r.mentionedGroupIds).toEqual([]);
  });

  it('renders a deactivated group’s mention as silent', () => {
    const r = renderMessage('@*old group*', ORG);
    expect(r.html).toBe('<p><span class="user-group-mention silent" data-user-group-id="31">old group</span></p>');
    expect(r.mentionedGroupIds).toEqual([]);
  });

  it('leaves an unknown group as emphasis', () => {
    expect(html('@*nobody*', ORG)).toBe('<p>@<em>nobody</em></p>');
  });
});

describe('renderMessage channel and topic links', () => {
  it('links a channel by its exact name', () => {
    expect(html('#**Denmark**', ORG)).toBe('<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Denmark">#Denmark</a></p>');
  });

  it('leaves a channel name in another case, or one the sender cannot see, as text', () => {
    expect(html('#**denmark** #**Secret**', ORG)).toBe('<p>#<strong>denmark</strong> #<strong>Secret</strong></p>');
  });

  it('encodes the channel slug as upstream (dots, parentheses, spaces)', () => {
    expect(html('#**Verona (old).x**', ORG)).toBe(
      '<p><a class="stream" data-stream-id="4" href="/#narrow/channel/4-Verona-.28old.29.2Ex">#Verona (old).x</a></p>',
    );
  });

  it('links a topic, with the latest message id when there is one', () => {
    expect(html('#**Denmark>some topic** #**Denmark>other**', ORG)).toBe(
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Denmark/topic/some.20topic/with/77">#Denmark &gt; some topic</a> ' +
        '<a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Denmark/topic/other">#Denmark &gt; other</a></p>',
    );
  });

  it('shows the empty topic as general chat', () => {
    expect(html('#**Denmark>**', ORG)).toBe(
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>',
    );
  });

  it('links a message in a topic', () => {
    expect(html('#**Denmark>hello@123**', ORG)).toBe(
      '<p><a class="message-link" href="/#narrow/channel/3-Denmark/topic/hello/near/123">#Denmark &gt; hello @ 💬</a></p>',
    );
  });
});

describe('renderMessage linkifiers', () => {
  it('links a match with the URL template expanded', () => {
    const r = renderMessage('We should fix #224 and zulip/zulip#1234.', ORG);
    expect(r.html).toBe(
      '<p>We should fix <a href="https://trac.example.com/ticket/224">#224</a> and <a href="https://github.com/zulip/zulip/pull/1234">zulip/zulip#1234</a>.</p>',
    );
    expect(r.hasLink).toBe(true);
  });

  it('does not link a match glued to a word before or after it', () => {
    expect(html('ab#224 #224x', ORG)).toBe('<p>ab#224 #224x</p>');
  });

  it('does not link inside code, or inside an explicit link’s label', () => {
    expect(html('`#224` [see #224](https://example.com)', ORG)).toBe('<p><code>#224</code> <a href="https://example.com">see #224</a></p>');
  });

  it('lets an earlier linkifier win over a later one for the same text', () => {
    const input = {
      ...NONE,
      linkifiers: [
        { pattern: 'AB-(?P<n>[0-9]+)', urlTemplate: 'https://one.example/{n}' },
        { pattern: '[A-Z]+-(?P<n>[0-9]+)', urlTemplate: 'https://two.example/{n}' },
      ],
    };
    expect(html('AB-1 CD-2', input)).toBe('<p><a href="https://one.example/1">AB-1</a> <a href="https://two.example/2">CD-2</a></p>');
  });

  it('percent-encodes the values it puts into the URL', () => {
    const input = { ...NONE, linkifiers: [{ pattern: 'q:(?P<q>\\S+)', urlTemplate: 'https://search.example/?q={q}' }] };
    expect(html('q:a&b', input)).toBe('<p><a href="https://search.example/?q=a%26b">q:a&amp;b</a></p>');
  });
});

describe('referencesIn', () => {
  // An unresolved topic link is then tried as a channel link named "general>lunch", as upstream does.
  it('lists every name, id, group, channel and topic the content refers to, outside code', () => {
    expect(referencesIn('@**Ann** @**Bob|7** @_*team* #**general** #**general>lunch** `@**Code**`')).toEqual({
      userNames: ['Ann'],
      userIds: [7],
      groupNames: ['team'],
      channelNames: ['general', 'general>lunch'],
      topics: [{ channelName: 'general', topic: 'lunch' }],
      emojiNames: [],
    });
  });

  it('lists the emoji names written, outside code, so that a caller loads custom emoji only then', () => {
    expect(referencesIn(':party_parrot: :smile: `:in_code:` :party_parrot:').emojiNames).toEqual(['party_parrot', 'smile']);
  });
});

describe('renderMessage linkifier patterns', () => {
  it('links with a pattern that escapes a hyphen outside a character class, as RE2 allows', () => {
    const input = { ...NONE, linkifiers: [{ pattern: 'ZUL\\-(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' }] };
    expect(html('see ZUL-12', input)).toBe('<p>see <a href="https://tracker.example/12">ZUL-12</a></p>');
  });

  // Upstream compiles linkifiers with RE2, which matches in time linear in the text; a
  // backtracking engine takes time doubling with every 'a' on this pattern.
  it('renders 10,000 characters against (?P<x>(a+)+b), linking nothing without the b and everything with it', () => {
    const input = { ...NONE, linkifiers: [{ pattern: '(?P<x>(a+)+b)', urlTemplate: 'https://x.example/{x}' }] };
    const run = 'a'.repeat(10_000);
    expect(html(run, input)).toBe(`<p>${run}</p>`);
    expect(html(`${run}b`, input)).toBe(`<p><a href="https://x.example/${run}b">${run}b</a></p>`);
  });

  it('links up to a character that is neither letter nor digit, as upstream: an underscore ends a match, an accented letter prevents it', () => {
    expect(html('#224_ #225é', ORG)).toBe('<p><a href="https://trac.example.com/ticket/224">#224</a>_ #225é</p>');
  });

  it('links nothing with a stored pattern RE2 refuses, and still renders the message', () => {
    const input = { ...NONE, linkifiers: [{ pattern: '#(?P<id>[0-9]+)(?=x)', urlTemplate: 'https://x.example/{id}' }] };
    expect(html('#12x', input)).toBe('<p>#12x</p>');
  });
});

// Upstream's emoji spans (zerver/lib/markdown make_emoji): code in the class, the name with
// underscores as spaces for title and label, the text as typed (or `:canonical_name:`).
const span = (code: string, title: string, text: string) =>
  `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">${text}</span>`;

describe('renderMessage emoji', () => {
  it.each([
    [':smile:', span('1f642', 'smile', ':smile:')],
    [':octopus:', span('1f419', 'octopus', ':octopus:')],
    [':heart:', span('2764', 'heart', ':heart:')],
    [':+1:', span('1f44d', '+1', ':+1:')],
    [':thumbs_up:', span('1f44d', 'thumbs up', ':thumbs_up:')],
    [':like:', span('1f44d', 'like', ':like:')],
    [':jack-o-lantern:', span('1f383', 'jack-o-lantern', ':jack-o-lantern:')],
  ])('renders %s by its name as typed', (input, expected) => {
    expect(html(input)).toBe(`<p>${expected}</p>`);
  });

  it('leaves a name upstream does not know as text', () => {
    expect(html(':thumbsup: :not_an_emoji: :smile')).toBe('<p>:thumbsup: :not_an_emoji: :smile</p>');
  });

  describe('custom emoji', () => {
    const input: RenderInput = {
      ...NONE,
      realmEmoji: [
        { name: 'party_parrot', sourceUrl: '/user_avatars/2/emoji/images/0123456789abcdef.gif' },
        { name: 'smile', sourceUrl: '/user_avatars/2/emoji/images/fedcba9876543210.png' },
      ],
    };

    it("renders an active custom emoji as upstream's image, the name with spaces as title", () => {
      expect(html('hi :party_parrot:', input)).toBe(
        '<p>hi <img alt=":party_parrot:" class="emoji" src="/user_avatars/2/emoji/images/0123456789abcdef.gif" title="party parrot"></p>',
      );
    });

    it('prefers a custom emoji over the Unicode emoji of the same name, as upstream', () => {
      expect(html(':smile:', input)).toBe(
        '<p><img alt=":smile:" class="emoji" src="/user_avatars/2/emoji/images/fedcba9876543210.png" title="smile"></p>',
      );
    });

    it('leaves an unknown name as text and a custom emoji in code as typed', () => {
      expect(html(':party_cat: `:party_parrot:`', input)).toBe('<p>:party_cat: <code>:party_parrot:</code></p>');
    });
  });

  it("renders Zulip's own emoji as upstream's image", () => {
    expect(html(':zulip:')).toBe(
      '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>',
    );
  });

  it('renders Unicode emoji by their canonical names, text around them kept', () => {
    expect(html('💩💩 and 👍 ok')).toBe(
      `<p>${span('1f4a9', 'poop', ':poop:')}${span('1f4a9', 'poop', ':poop:')} and ${span('1f44d', '+1', ':+1:')} ok</p>`,
    );
    expect(html('🙂 ❤️ #️⃣')).toBe(
      `<p>${span('1f642', 'smile', ':smile:')} ${span('2764', 'heart', ':heart:')} ${span('0023-20e3', 'hash', ':hash:')}</p>`,
    );
    expect(html('🛠')).toBe(`<p>🛠</p>`); // text presentation without U+FE0F
    expect(html('🛠️')).toBe(`<p>${span('1f6e0', 'working on it', ':working_on_it:')}</p>`);
  });

  it('leaves as text what upstream does not name: skin tones, families, newer emoji, text-style symbols, digits', () => {
    expect(html('👍🏽 🧑‍🧑‍🧒 🫩 ↔ ❤ 2024 # *')).toBe('<p>👍🏽 🧑‍🧑‍🧒 🫩 ↔ ❤ 2024 # *</p>');
  });

  it('renders no emoji inside code spans or code blocks', () => {
    expect(html('`:smile: 💩`')).toBe('<p><code>:smile: 💩</code></p>');
    expect(html('```\n:smile: 💩\n```')).toBe('<div class="codehilite"><pre><span></span><code>:smile: 💩\n</code></pre></div>');
  });

  it('renders emoji inside emphasis and link labels', () => {
    expect(html('**hi :wave:**')).toBe(`<p><strong>hi ${span('1f44b', 'wave', ':wave:')}</strong></p>`);
    expect(html('[go 🚀](https://example.com)')).toBe(`<p><a href="https://example.com">go ${span('1f680', 'rocket', ':rocket:')}</a></p>`);
  });

  it('does not take a mention or a URL apart', () => {
    const input: RenderInput = { ...NONE, users: [{ id: 7, fullName: 'smile :smile:', isActive: true }] };
    expect(html('@**smile :smile:** https://example.com/:smile:/x', input)).toBe(
      '<p><span class="user-mention" data-user-id="7">@smile :smile:</span> <a href="https://example.com/:smile:/x">https://example.com/:smile:/x</a></p>',
    );
  });

  it('leaves emoji as typed where their spans would make the HTML too large to store', () => {
    const many = '😀'.repeat(5000);
    expect(html(many)).toBe(`<p>${many}</p>`);
    expect(renderPlainMarkdown(many)).toBe(`<p>${many}</p>`);
    const fewer = '😀'.repeat(1000);
    expect(html(fewer)).toBe(`<p>${span('1f600', 'grinning', ':grinning:').repeat(1000)}</p>`);
    expect(Buffer.byteLength(html(fewer))).toBeLessThan(MAX_HTML_BYTES_RICH);
  });

  it('leaves TeX as typed where KaTeX would make the HTML too large to store', () => {
    const many = '$$x$$ '.repeat(1600).trim();
    expect(html(many)).toBe(`<p>${many}</p>`);
    expect(html(`${many}\n\n\`\`\`math\ny\n\`\`\``)).toMatch(
      /<div class="codehilite" data-code-language="math"><pre><span><\/span><code>y\n<\/code><\/pre><\/div>$/,
    );
    expect(Buffer.byteLength(html('$$x$$ '.repeat(100)))).toBeLessThan(MAX_HTML_BYTES_RICH);
    expect(html('$$x$$ '.repeat(100))).toContain('class="katex"');
  });

  describe('emoticons', () => {
    const translating: RenderInput = { ...NONE, translateEmoticons: true };

    it.each([
      [':)', '1f642', 'smile'],
      ['(:', '1f642', 'smile'],
      [':(', '1f641', 'frown'],
      ['<3', '2764', 'heart'],
      [':|', '1f610', 'neutral'],
      [':/', '1f615', 'confused'],
      [';)', '1f609', 'wink'],
      [':D', '1f600', 'grinning'],
      [':o', '1f62e', 'open_mouth'],
      [':P', '1f61b', 'stuck_out_tongue'],
    ])('translates %s for a sender who asked for it', (emoticon, code, name) => {
      expect(html(`ok ${emoticon}`, translating)).toBe(`<p>ok ${span(code, name.replace(/_/g, ' '), `:${name}:`)}</p>`);
    });

    it('leaves emoticons as typed for a sender who did not ask for it', () => {
      expect(html('ok :) <3')).toBe('<p>ok :) &lt;3</p>');
    });

    it('translates only an emoticon standing between word-ending symbols, and not in code', () => {
      expect(html('a:) :)b (:) "<3" `:)`', translating)).toBe(
        `<p>a:) :)b ${span('1f642', 'smile', ':smile:')}) "${span('2764', 'heart', ':heart:')}" <code>:)</code></p>`,
      );
    });
  });
});
