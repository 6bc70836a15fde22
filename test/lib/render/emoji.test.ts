// Emoji in rendered messages: upstream's names and spans, custom emoji, Unicode emoji, emoticons,
// and the limit past which emoji (and TeX) stay as typed so the HTML fits its item.
import { MAX_HTML_BYTES_RICH, renderPlainMarkdown, type RenderInput } from '../../../lib/render';
import { NO_REFERENCES as NONE, renderHtml as html } from '../../helpers/render';

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
