// topicLinks against upstream's cases (zerver/tests/test_markdown.py: test_realm_patterns,
// test_multiple_matching_realm_patterns, test_links_and_linkifiers_in_topic_name,
// test_topic_links_ordering_by_priority, test_realm_patterns_negative).
import { topicLinks, type RenderLinkifier } from '../../../lib/render';

const TRAC: RenderLinkifier[] = [{ pattern: '#(?P<id>[0-9]{2,8})', urlTemplate: 'https://trac.example.com/ticket/{id}' }];

describe('topicLinks', () => {
  it.each([
    ['Hello #123 World', true],
    ['Hello #123World', false],
    ['Hello#123 World', false],
    ['(#123)', true],
    ['#123>', true],
    ['"#123"', true],
    ['#123@', true],
    [')#123(', false],
    ['##123', false],
  ])('links a linkifier match in %j only at upstream word boundaries (%s)', (topic, linked) => {
    expect(topicLinks(topic, TRAC)).toEqual(linked ? [{ text: '#123', url: 'https://trac.example.com/ticket/123' }] : []);
  });

  it('lists nothing for a topic without matches, and for the empty topic', () => {
    expect(topicLinks('no match here', TRAC)).toEqual([]);
    expect(topicLinks('', TRAC)).toEqual([]);
  });

  it('gives an overlap to the earlier linkifier and lists the links by position', () => {
    const linkifiers: RenderLinkifier[] = [
      { pattern: '(?P<id>ABC-[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' },
      { pattern: '(?P<id>[A-Z][A-Z0-9]*-[0-9]+)', urlTemplate: 'https://other-trac.example.com/ticket/{id}' },
      { pattern: '(?P<id>[A-Z][A-Z0-9]+)', urlTemplate: 'https://yet-another-trac.example.com/ticket/{id}' },
    ];
    expect(topicLinks('ABC-123', linkifiers)).toEqual([{ text: 'ABC-123', url: 'https://trac.example.com/ticket/ABC-123' }]);
    expect(topicLinks('ASD-123 ABC-123 QWE', linkifiers)).toEqual([
      { text: 'ASD-123', url: 'https://other-trac.example.com/ticket/ASD-123' },
      { text: 'ABC-123', url: 'https://trac.example.com/ticket/ABC-123' },
      { text: 'QWE', url: 'https://yet-another-trac.example.com/ticket/QWE' },
    ]);
  });

  it('links raw URLs after the linkifiers, and lets a linkifier that starts earlier win over one', () => {
    const linkifiers: RenderLinkifier[] = [
      { pattern: 'ABC-42', urlTemplate: 'https://google.com' },
      { pattern: 'com.+(?P<id>ABC\\-[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' },
    ];
    expect(topicLinks('com ABC-42', linkifiers)).toEqual([{ text: 'ABC-42', url: 'https://google.com' }]);
    expect(topicLinks('https://foo.com/ABC-123', linkifiers)).toEqual([
      { text: 'https://foo.com/ABC-123', url: 'https://foo.com/ABC-123' },
    ]);
    expect(topicLinks('com https://foo.com/ABC-123', linkifiers)).toEqual([
      { text: 'com https://foo.com/ABC-123', url: 'https://trac.example.com/ticket/ABC-123' },
    ]);
    expect(topicLinks('#234 https://google.com', TRAC)).toEqual([
      { text: '#234', url: 'https://trac.example.com/ticket/234' },
      { text: 'https://google.com', url: 'https://google.com' },
    ]);
  });

  it('orders overlapping matches by linkifier priority, raw URLs last', () => {
    const linkifiers: RenderLinkifier[] = [
      { pattern: 'http', urlTemplate: 'http://example.com/' },
      { pattern: 'b#(?P<id>[a-z]+)', urlTemplate: 'http://example.com/b/{id}' },
      { pattern: 'a#(?P<aid>[a-z]+) b#(?P<bid>[a-z]+)', urlTemplate: 'http://example.com/a/{aid}/b/{bid}' },
      { pattern: 'a#(?P<id>[a-z]+)', urlTemplate: 'http://example.com/a/{id}' },
    ];
    expect(topicLinks('http://foo.com a#asd b#bar', linkifiers)).toEqual([
      { text: 'http', url: 'http://example.com/' },
      { text: 'a#asd', url: 'http://example.com/a/asd' },
      { text: 'b#bar', url: 'http://example.com/b/bar' },
    ]);
  });

  it('links a www. URL with https and leaves trailing punctuation out', () => {
    expect(topicLinks('see www.example.com/docs. (later)', [])).toEqual([
      { text: 'www.example.com/docs', url: 'https://www.example.com/docs' },
    ]);
  });
});
