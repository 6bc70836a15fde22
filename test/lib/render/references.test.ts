// What renderMessage resolves against the organization's data: user, wildcard and group mentions,
// channel and topic links, linkifiers (RE2 patterns included), and referencesIn, which says what
// a message refers to before it renders.
import { referencesIn, renderMessage, topicKey, type RenderInput } from '../../../lib/render';
import { NO_REFERENCES as NONE, renderHtml as html } from '../../helpers/render';

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
