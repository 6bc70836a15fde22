// renderMessage's Markdown: upstream's own test cases, byte for byte, and its bare-URL linking.
// Mentions, channel links and linkifiers are references.test.ts's; emoji are emoji.test.ts's.
import { renderHtml as html } from '../../helpers/render';

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
