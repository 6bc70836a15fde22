// What upstream's own test data (upstream-cases.test.ts) does not pin down of TeX, timestamps,
// tables, bare-domain links and image previews.
import type { RenderInput } from '../../../lib/render';
import { timestampDatetime } from '../../../lib/render/timestamp';
import { NO_REFERENCES, renderHtml } from '../../helpers/render';

const AT_URL: RenderInput = { ...NO_REFERENCES, realmUrl: 'https://chat.example.com' };
const html = (content: string): string => renderHtml(content, AT_URL);

describe('timestamps', () => {
  it.each([
    ['2017-06-05T22:30:00Z', '2017-06-05T22:30:00Z'],
    ['2017-06-05T22:30:00+02:00', '2017-06-05T20:30:00Z'],
    ['2017-06-05 22:30', '2017-06-05T22:30:00Z'],
    ['2017-06-05T22:30:00.250Z', '2017-06-05T22:30:00.250000Z'],
    ['Monday, June 5, 2017 at 10:30 pm PDT', '2017-06-06T05:30:00Z'],
    ['12/31/2017 17:00', '2017-12-31T17:00:00Z'],
    ['20170605', '2017-06-05T00:00:00Z'],
    ['0', '1970-01-01T00:00:00Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(timestampDatetime(text)).toBe(iso);
  });

  it.each(['31 Feb 2017', '2017-13-01', '25:00', 'tomorrow', '', '99999999999999999999'])('refuses %j', (text) => {
    expect(timestampDatetime(text)).toBeUndefined();
  });

  it('fills a missing date from today', () => {
    expect(timestampDatetime('10:30pm', new Date('2020-02-03T12:00:00Z'))).toBe('2020-02-03T22:30:00Z');
  });

  it('escapes the text shown', () => {
    expect(html('<time:2017-06-05 & more>')).toBe('<p><span class="timestamp-error">Invalid time format: 2017-06-05 &amp; more</span></p>');
  });
});

describe('TeX', () => {
  it('renders a math block paragraph by paragraph, errors as typed', () => {
    const out = html('```math\nx\n\n\\bad{"}\n```');
    expect(out).toMatch(/^<p><span class="katex-display">.*<\/p>\n<p><span class="tex-error">\\bad\{&quot;\}<\/span><\/p>$/s);
  });

  it('leaves $$ inside code alone and bounds what KaTeX expands', () => {
    expect(html('`$$x$$`')).toBe('<p><code>$$x$$</code></p>');
    const bomb = `$$${'\\def\\a{\\b\\b}\\def\\b{\\c\\c}\\def\\c{\\d\\d}\\def\\d{xx}'.repeat(1)}${'\\a'.repeat(200)}$$`;
    expect(html(bomb)).toContain('tex-error');
  });
});

describe('tables', () => {
  it('aligns columns, pads short rows, keeps | inside code', () => {
    expect(html('| a | b |\n|:--|--:|\n| `x|y` |')).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align: left;">a</th>\n<th style="text-align: right;">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style="text-align: left;"><code>x|y</code></td>\n<td style="text-align: right;"></td>\n</tr>\n</tbody>\n</table>',
    );
  });

  it('needs a block of its own', () => {
    expect(html('text\na | b\n--|--')).toBe('<p>text<br>\na | b<br>\n--|--</p>');
  });
});

describe('links', () => {
  it('links bare domains of known top-level domains, not file names', () => {
    expect(html('see example.dev and notes.txt')).toBe('<p>see <a href="http://example.dev">example.dev</a> and notes.txt</p>');
  });

  it("makes links to the organization's own views and uploads relative", () => {
    expect(html('https://chat.example.com/#narrow/channel/1-a [f](https://chat.example.com/user_uploads/2/ab/f.pdf)')).toBe(
      '<p><a href="#narrow/channel/1-a">https://chat.example.com/#narrow/channel/1-a</a> <a href="user_uploads/2/ab/f.pdf">f</a></p>',
    );
  });
});

describe('image previews', () => {
  it('previews an uploaded image, titled by its label', () => {
    expect(html('[cat.png](/user_uploads/2/ab/cat.png)')).toBe(
      '<p><a href="/user_uploads/2/ab/cat.png">cat.png</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ab/cat.png" title="cat.png"><img data-src-fullsize="/thumbnail?url=%2Fuser_uploads%2F2%2Fab%2Fcat.png&amp;size=full" src="/thumbnail?url=%2Fuser_uploads%2F2%2Fab%2Fcat.png&amp;size=thumbnail"></a></div>',
    );
  });

  it('previews no more than 24 images a message, and none of other links', () => {
    const content = Array.from({ length: 30 }, (_, i) => `https://example.com/${i}.jpg`).join('\n');
    expect(html(content).match(/message_inline_image/g)).toHaveLength(24);
    expect(html('https://example.com/a.pdf https://example.com/b.png?x=1')).toContain('message_inline_image');
    expect(html('https://example.com/a.pdf')).not.toContain('message_inline_image');
  });
});
