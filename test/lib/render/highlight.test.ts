// Code highlighting (lib/render/highlight.ts) beyond what upstream's test data pins down: other
// languages, escaping inside tokens, languages without spans, shebang lines, and hostile code.
import { MAX_HIGHLIGHT_CHARS } from '../../../lib/render/highlight';
import { renderHtml as html } from '../../helpers/render';

const block = (language: string, code: string, attribute = ` data-code-language="${language}"`): string =>
  `<div class="codehilite"${attribute}><pre><span></span><code>${code}\n</code></pre></div>`;

describe('code highlighting', () => {
  it("gives Python Pygments' token classes", () => {
    expect(html('```python\nclass A(B):\n    @property\n    def f(cls, x=0x1f):\n        return not x or 1.5  # done\n```')).toBe(
      block(
        'Python',
        [
          '<span class="k">class</span> <span class="nc">A</span><span class="p">(</span><span class="n">B</span><span class="p">):</span>',
          '    <span class="nd">@property</span>',
          '    <span class="k">def</span> <span class="nf">f</span><span class="p">(</span><span class="bp">cls</span><span class="p">,</span> <span class="n">x</span><span class="o">=</span><span class="mh">0x1f</span><span class="p">):</span>',
          '        <span class="k">return</span> <span class="ow">not</span> <span class="n">x</span> <span class="ow">or</span> <span class="mf">1.5</span>  <span class="c1"># done</span>',
        ].join('\n'),
      ),
    );
  });

  it.each([
    ['js', 'JavaScript', 'let s = "a"; // c', '<span class="s2">&quot;a&quot;</span>', '<span class="c1">// c</span>'],
    ['sql', 'SQL', "SELECT a FROM t WHERE b = 'x';", '<span class="k">SELECT</span>', '<span class="s1">&#39;x&#39;</span>'],
    ['json', 'JSON', '{"a": [1, true]}', '<span class="mi">1</span>', '<span class="kc">true</span>'],
    ['rust', 'Rust', 'fn main() {}', '<span class="k">fn</span>', '<span class="nf">main</span>'],
    ['bash', 'Bash', 'echo "$HOME" # c', '<span class="nb">echo</span>', '<span class="c1"># c</span>'],
    ['latex', 'TeX', '\\section{A} % c', '<span class="k">\\section</span>', '% c'],
  ])('highlights %s, shown as %s', (alias, name, code, ...spans) => {
    const out = html(`\`\`\`${alias}\n${code}\n\`\`\``);
    expect(out.startsWith(`<div class="codehilite" data-code-language="${name}"><pre><span></span><code>`)).toBe(true);
    spans.forEach((span) => expect(out).toContain(span));
  });

  it('escapes <, >, &, " and \' inside tokens, and takes no HTML from the library', () => {
    expect(html('```python\nx = "<a href=\'&\'>"  # <b>&\n```')).toBe(
      block(
        'Python',
        '<span class="n">x</span> <span class="o">=</span> <span class="s2">&quot;&lt;a href=&#39;&amp;&#39;&gt;&quot;</span>  <span class="c1"># &lt;b&gt;&amp;</span>',
      ),
    );
    const out = html('```html\n<script>alert("x&y")</script><img src=x onerror=\'1\'>\n```');
    expect(out).toContain('<span class="p">&lt;</span><span class="nt">script</span><span class="p">&gt;</span>');
    // Once the spans are taken out, what is left is the code, every character escaped.
    const text = /<code>(.*)<\/code>/s.exec(out)![1].replace(/<\/?span[^>]*>/g, '');
    expect(text).toBe('&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;1&#39;&gt;\n');
  });

  it('names a language as Pygments does, matched without regard to case', () => {
    expect(html('```PY\nx\n```')).toBe(block('Python', '<span class="n">x</span>'));
    expect(html('```py2\nx\n```')).toBe(block('Python 2.x', '<span class="n">x</span>'));
  });

  it('leaves a language Pygments does not know as written, and one without a grammar without spans', () => {
    expect(html('```inventedlanguage\nx = "<1>"\n```')).toBe(block('inventedlanguage', 'x = &quot;&lt;1&gt;&quot;'));
    expect(html('```text\nx = 1\n```')).toBe(block('Text only', 'x = 1'));
    expect(html('```c++\nint x;\n```')).toBe(block('C++', 'int x;'));
    expect(html('```\ndef f(): pass\n```')).toBe(block('', 'def f(): pass', ''));
    expect(html('```toString\nx\n```')).toBe(block('toString', 'x'));
    expect(html('```__proto__\nx\n```')).toBe(block('__proto__', 'x'));
  });

  it('highlights a block whose first line names its language (#!, :::), the line kept, the language not shown', () => {
    expect(html('```\n#!/usr/bin/env python\nimport os\n```')).toBe(
      block('', '<span class="ch">#!/usr/bin/env python</span>\n<span class="kn">import</span> <span class="n">os</span>', ''),
    );
    expect(html('    #!python\n    x = 1')).toBe(
      block('', '<span class="ch">#!python</span>\n<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>', ''),
    );
    expect(html('```\n#!nonsense\nimport os\n```')).toBe(block('', '#!nonsense\nimport os', ''));
  });

  it('renders hostile code in bounded time, without spans where it would be costly', () => {
    const started = Date.now();
    // Past the size bound: plain.
    const huge = 'x = "a" + (b)\n'.repeat(Math.ceil(100_000 / 14));
    expect(huge.length).toBeGreaterThan(MAX_HIGHLIGHT_CHARS);
    expect(html(`\`\`\`python\n${huge}\`\`\``)).not.toContain('<span class=');
    // Constructs opened and never closed make each line cost more than the last: plain.
    for (const [language, unit] of [
      ['bash', '$(${"`'],
      ['python', 'f"{'],
      ['yaml', '- [{'],
      ['latex', '\\begin{x}{'],
    ]) {
      const code = `${unit.repeat(4)}\n`.repeat(Math.floor(MAX_HIGHLIGHT_CHARS / (4 * unit.length + 1)));
      expect(html(`\`\`\`${language}\n${code}\`\`\``)).not.toContain('<span class=');
    }
    // A line too long to highlight stays plain; the other lines still get their spans.
    const out = html(`\`\`\`python\nx = 1\n${'(a) '.repeat(1000)}\n\`\`\``);
    expect(out).toContain('<span class="n">x</span>');
    expect(out).toContain(`\n${'(a) '.repeat(1000).trimEnd()}\n</code>`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('leaves code plain in the rendering without spans (HTML past the stored size)', () => {
    const code = 'a.b(c[d]{e:f}) + 0x1f * 1.5e3 # c\n'.repeat(300);
    const out = html(`\`\`\`python\n${code}\`\`\`\n${':smile: '.repeat(1000)}`);
    expect(out).not.toContain('<span class=');
  });
});
