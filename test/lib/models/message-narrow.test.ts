// lib/models/narrow.ts for message fetches: typed operands, resolution with upstream's errors,
// matching stored messages, and the source each narrow reads.
import {
  isDmNarrow,
  matchesNarrow,
  messageNarrowTerm,
  narrowSource,
  resolveNarrow,
  type MessageFacts,
  type MessageNarrowTerm,
  type NarrowLookup,
} from '../../../lib/models/narrow';

const lookup: NarrowLookup = {
  channel: async (v) => ([1, 'verona', 'Verona', '1'].includes(v) ? { id: 1 } : v === 2 || v === 'Denmark' ? { id: 2 } : undefined),
  channelIds: async (which) => (which === 'public' ? [1, 2] : [1]),
  user: async (v) => {
    const users: Record<string, number> = { 'iago@zulip.com': 11, 'hamlet@zulip.com': 10, 'othello@zulip.com': 12 };
    if (typeof v === 'number') return [10, 11, 12].includes(v) ? { id: v } : undefined;
    const id = users[v.toLowerCase()];
    return id ? { id } : undefined;
  },
  mutedChannelIds: async () => [2],
};

const term = (operator: string, operand: MessageNarrowTerm['operand'], negated = false): MessageNarrowTerm => ({
  operator,
  operand,
  negated,
});
const resolve = (...terms: MessageNarrowTerm[]) => resolveNarrow(terms, 11, lookup);

const channelMsg: MessageFacts = { id: 5, senderId: 10, streamId: 1, topic: 'Test', dmUserIds: [], flags: ['read'] };
const dmMsg: MessageFacts = { id: 6, senderId: 10, streamId: null, topic: '', dmUserIds: [10, 11], flags: [] };
const groupMsg: MessageFacts = { id: 7, senderId: 12, streamId: null, topic: '', dmUserIds: [10, 11, 12], flags: ['mentioned'] };
const selfMsg: MessageFacts = { id: 8, senderId: 11, streamId: null, topic: '', dmUserIds: [11], flags: ['read', 'starred'] };

describe('messageNarrowTerm', () => {
  it('keeps integer and integer-list operands for the operators that take ids', () => {
    expect(messageNarrowTerm({ operator: 'channel', operand: 3 }, 'narrow[0]')).toEqual(term('channel', 3));
    expect(messageNarrowTerm({ operator: 'dm', operand: [10, 12], negated: true }, 'narrow[0]')).toEqual(term('dm', [10, 12], true));
    expect(messageNarrowTerm(['stream', 'Verona'], 'narrow[0]')).toEqual(term('stream', 'Verona'));
  });

  it('ignores extra keys of an object term, as upstream', () => {
    expect(messageNarrowTerm({ operator: 'is', operand: 'dm', extra: 1 }, 'narrow[0]')).toEqual(term('is', 'dm'));
  });

  it.each([
    [[1, 2], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [['x', 'y', 'z'], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [['dm', [1, 2]], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [5, 'Invalid narrow[0]: Value error, dict or list required'],
    [{ operand: 'x' }, 'Invalid narrow[0]: Value error, operator is missing'],
    [{ operator: 'is' }, 'Invalid narrow[0]: Value error, operand is missing'],
    [{ operator: 'is', operand: null }, 'Invalid narrow[0]: Value error, operand is missing'],
    [{ operator: 'channel', operand: [1] }, 'operand is not a string or integer'],
    [{ operator: 'dm', operand: 3 }, 'operand is not a string or an integer list'],
    [{ operator: 'dm', operand: [1, 'a'] }, 'operand[1] is not an integer'],
    [{ operator: 'topic', operand: 3 }, 'operand is not a string'],
    [{ operator: 'search', operand: '  ' }, 'operand cannot be blank.'],
    [{ operator: 'is', operand: 'dm', negated: 1 }, 'negated is not a boolean'],
  ])('refuses %j with "%s"', (value, message) => {
    expect(() => messageNarrowTerm(value, 'narrow[0]')).toThrow(message);
  });
});

describe('resolveNarrow', () => {
  it('resolves channel names and ids, and emails and ids of users', async () => {
    await expect(resolve(term('stream', 'verona'), term('sender', 'HAMLET@zulip.com'))).resolves.toEqual([
      { operator: 'channel', channelId: 1, negated: false },
      { operator: 'sender', userId: 10, negated: false },
    ]);
  });

  it('adds the viewer to a dm operand and sorts the participants', async () => {
    await expect(resolve(term('pm-with', 'othello@zulip.com,hamlet@zulip.com'))).resolves.toEqual([
      { operator: 'dm', userIds: [10, 11, 12], negated: false },
    ]);
    await expect(resolve(term('dm', [11]))).resolves.toEqual([{ operator: 'dm', userIds: [11], negated: false }]);
  });

  it('turns an empty dm operand into a narrow that matches nothing', async () => {
    const narrow = await resolve(term('dm', []));
    expect(narrowSource(narrow, () => true, { guest: false })).toEqual({ kind: 'none' });
  });

  it('reads only the first topic "general chat" as the empty topic', async () => {
    await expect(resolve(term('topic', 'general chat'), term('topic', 'general chat'))).resolves.toEqual([
      { operator: 'topic', topic: '', negated: false },
      { operator: 'topic', topic: 'general chat', negated: false },
    ]);
  });

  it.each([
    [[term('foo', 'x')], 'Invalid narrow operator: unknown operator foo', 'unknown operator foo'],
    [[term('', 'x')], 'Invalid narrow operator: unknown operator ', 'unknown operator '],
    [[term('channel:verona', 'x')], 'Invalid narrow operator: unknown operator channel:verona', 'unknown operator channel:verona'],
    [[term('__init__', 'x')], 'Invalid narrow operator: unknown operator __init__', 'unknown operator __init__'],
    [[term('has', 'emoji')], "Invalid narrow operator: unknown 'has' operand emoji", "unknown 'has' operand emoji"],
    [[term('in', 'inbox')], "Invalid narrow operator: unknown 'in' operand inbox", "unknown 'in' operand inbox"],
    [[term('stream', 'Nowhere')], 'Invalid narrow operator: unknown channel Nowhere', 'unknown channel Nowhere'],
    [[term('sender', 'nobody@zulip.com')], 'Invalid narrow operator: unknown user nobody@zulip.com', 'unknown user nobody@zulip.com'],
    [[term('dm', [1, 2])], 'Invalid narrow operator: unknown user in [1, 2]', 'unknown user in [1, 2]'],
    [[term('is', 'bogus')], "Invalid narrow operator: unknown 'is' operand bogus", "unknown 'is' operand bogus"],
    [[term('channels', 'all')], 'Invalid narrow operator: unknown channels operand all', 'unknown channels operand all'],
    [[term('id', 'abc')], 'Invalid narrow operator: Invalid message ID', 'Invalid message ID'],
    [[term('id', '2147483648')], 'Invalid narrow operator: Invalid message ID', 'Invalid message ID'],
    [
      [term('stream', 'Verona'), term('is', 'dm')],
      'Invalid narrow operator: No message can be both a channel message and direct message',
      'No message can be both a channel message and direct message',
    ],
    [
      [term('is', 'dm', true), term('dm', [10])],
      'Invalid narrow operator: No message can be both a channel message and direct message',
      'No message can be both a channel message and direct message',
    ],
  ])('refuses %j with BAD_NARROW "%s"', async (terms, message, desc) => {
    await expect(resolveNarrow(terms, 11, lookup)).rejects.toMatchObject({ message, code: 'BAD_NARROW', data: { desc } });
  });
});

describe('matchesNarrow', () => {
  it('matches a channel and a topic case-insensitively', async () => {
    const narrow = await resolve(term('channel', 1), term('topic', 'test'));
    expect([channelMsg, dmMsg].filter((m) => matchesNarrow(narrow, m))).toEqual([channelMsg]);
  });

  it('matches a dm narrow only on its exact conversation', async () => {
    const oneToOne = await resolve(term('dm', [10]));
    const group = await resolve(term('dm', [10, 12]));
    const self = await resolve(term('dm', [11]));
    expect([dmMsg, groupMsg, selfMsg].filter((m) => matchesNarrow(oneToOne, m))).toEqual([dmMsg]);
    expect([dmMsg, groupMsg, selfMsg].filter((m) => matchesNarrow(group, m))).toEqual([groupMsg]);
    expect([dmMsg, groupMsg, selfMsg].filter((m) => matchesNarrow(self, m))).toEqual([selfMsg]);
  });

  it('matches dm-including on every direct message with that user, and the viewer on all of them', async () => {
    const withOthello = await resolve(term('dm-including', 12));
    const withSelf = await resolve(term('dm-including', 11));
    expect([channelMsg, dmMsg, groupMsg, selfMsg].filter((m) => matchesNarrow(withOthello, m))).toEqual([groupMsg]);
    expect([channelMsg, dmMsg, groupMsg, selfMsg].filter((m) => matchesNarrow(withSelf, m))).toEqual([dmMsg, groupMsg, selfMsg]);
  });

  it('matches is: terms on the flags, and negated terms on their complement', async () => {
    const all = [channelMsg, dmMsg, groupMsg, selfMsg];
    expect(all.filter((m) => matchesNarrow(narrowOf([term('is', 'unread')]), m))).toEqual([dmMsg, groupMsg]);
    expect(all.filter((m) => matchesNarrow(narrowOf([term('is', 'starred')]), m))).toEqual([selfMsg]);
    expect(all.filter((m) => matchesNarrow(narrowOf([term('is', 'mentioned')]), m))).toEqual([groupMsg]);
    expect(all.filter((m) => matchesNarrow(narrowOf([term('is', 'private', true)]), m))).toEqual([channelMsg]);
    expect(all.filter((m) => matchesNarrow(narrowOf([term('sender', 10, true)]), m))).toEqual([groupMsg, selfMsg]);
  });

  it('matches has: terms on the message details, and passes a row without them to be checked on the message', async () => {
    const linked: MessageFacts = {
      ...channelMsg,
      details: { content: 'see https://x.org', hasLink: true, hasImage: false, hasAttachment: false, hasReaction: true },
    };
    const plain: MessageFacts = {
      ...channelMsg,
      details: { content: 'nothing', hasLink: false, hasImage: false, hasAttachment: false, hasReaction: false },
    };
    const hasLink = await resolve(term('has', 'link'));
    expect([linked, plain].filter((m) => matchesNarrow(hasLink, m))).toEqual([linked]);
    const notLink = await resolve(term('has', 'link', true));
    expect([linked, plain].filter((m) => matchesNarrow(notLink, m))).toEqual([plain]);
    const hasReaction = await resolve(term('has', 'reaction'));
    expect([linked, plain].filter((m) => matchesNarrow(hasReaction, m))).toEqual([linked]);
    expect(matchesNarrow(hasLink, channelMsg)).toBe(true);
  });

  it('merges every search term into one, never negated, keeping its "quoted phrases" as written', async () => {
    const narrow = await resolve(term('search', 'castle'), term('search', '"the KING"', true));
    expect(narrow).toEqual([{ operator: 'search', text: { query: 'castle "the KING"', phrases: ['the KING'] }, negated: false }]);
    const facts = (content: string, topic = 'Test'): MessageFacts => ({
      ...channelMsg,
      topic,
      details: { content, hasLink: false, hasImage: false, hasAttachment: false, hasReaction: false },
    });
    // The search index decides (lib/search): a message it did not match never matches, whatever its text.
    expect(matchesNarrow(narrow, facts('The King is in the castle'))).toBe(false);
    const hit = facts('anything');
    expect(matchesNarrow(narrow, { ...hit, details: { ...hit.details!, searchHit: true } })).toBe(true);
  });

  it('leaves out muted channels for in:home unless the narrow names a channel, and keeps everything for in:all', async () => {
    const muted: MessageFacts = { ...channelMsg, streamId: 2 };
    const home = await resolve(term('in', 'home'));
    expect([channelMsg, muted, dmMsg].filter((m) => matchesNarrow(home, m))).toEqual([channelMsg, dmMsg]);
    expect(await resolve(term('channel', 2), term('in', 'home'))).toEqual([
      { operator: 'channel', channelId: 2, negated: false },
      { operator: 'in', operand: 'home', mutedChannelIds: [], negated: false },
    ]);
    const all = await resolve(term('in', 'all'));
    expect([channelMsg, muted, dmMsg].filter((m) => matchesNarrow(all, m))).toEqual([channelMsg, muted, dmMsg]);
  });

  it('says which narrows are direct-message narrows', () => {
    expect(isDmNarrow(narrowOf([term('is', 'dm')]))).toBe(true);
    expect(isDmNarrow(narrowOf([term('is', 'starred')]))).toBe(false);
  });
});

// Synchronous shapes for matching tests (resolution is tested above).
const narrowOf = (terms: MessageNarrowTerm[]) =>
  terms.map((t) => {
    if (t.operator === 'is')
      return { operator: 'is' as const, operand: (t.operand === 'private' ? 'dm' : t.operand) as 'dm', negated: t.negated };
    return { operator: 'sender' as const, userId: Number(t.operand), negated: t.negated };
  });

describe('narrowSource', () => {
  const full = () => true;
  it('reads a channel or topic conversation when its whole history is readable, else the viewer rows of it', async () => {
    expect(narrowSource(await resolve(term('channel', 1), term('topic', 'x')), full, { guest: false })).toEqual({
      kind: 'channel',
      channelId: 1,
      topic: 'x',
    });
    expect(narrowSource(await resolve(term('channel', 1)), () => false, { guest: false })).toEqual({
      kind: 'rows',
      of: 'channel',
      channelId: 1,
    });
  });

  it('reads the viewer rows for a channel narrow with an is: term, as upstream turns history off', async () => {
    expect(narrowSource(await resolve(term('channel', 1), term('is', 'starred')), full, { guest: false })).toEqual({
      kind: 'rows',
      of: 'starred',
    });
    expect(narrowSource(await resolve(term('channel', 1), term('is', 'resolved')), full, { guest: false })).toEqual({
      kind: 'channel',
      channelId: 1,
    });
  });

  it('reads a dm conversation, the viewer dm rows for is:dm and dm-including, and the feed without a narrow', async () => {
    expect(narrowSource(await resolve(term('dm', [10])), full, { guest: false })).toEqual({ kind: 'dm', userIds: [10, 11] });
    expect(narrowSource(await resolve(term('is', 'dm')), full, { guest: false })).toEqual({ kind: 'rows', of: 'dms' });
    expect(narrowSource(await resolve(term('dm-including', 12)), full, { guest: false })).toEqual({ kind: 'rows', of: 'dms' });
    expect(narrowSource([], full, { guest: false })).toEqual({ kind: 'rows', of: 'all' });
  });

  it('reads the public channels for channels:public, except for guests', async () => {
    const narrow = await resolve(term('channels', 'public'));
    expect(narrowSource(narrow, full, { guest: false })).toEqual({ kind: 'channels', channelIds: [1, 2] });
    expect(narrowSource(narrow, full, { guest: true })).toEqual({ kind: 'rows', of: 'all' });
  });

  it('reads the one message of an id term', async () => {
    expect(narrowSource(await resolve(term('id', '7'), term('channel', 1)), full, { guest: false })).toEqual({ kind: 'ids', ids: [7] });
  });
});
