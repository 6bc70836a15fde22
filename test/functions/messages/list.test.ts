// GET /messages against the development data. Iago (11) is subscribed to Denmark (1), Scotland (2,
// muted), Verona (3), core team (6, private, protected history) and Old Verona (7, archived), and
// left Venice (4). Polonius (13) is a guest subscribed to Verona only; Rome (5) is web-public.
import { handler } from '../../../functions/messages/list';
import { handler as getOne } from '../../../functions/messages/get';
import { handler as sendHandler } from '../../../functions/messages/send';
import { call, expectError, expectSuccess } from '../../helpers/api';

const IAGO = 'iago@zulip.com';
const fetch = (as: string, params: Record<string, unknown>) => call(handler, { method: 'GET', path: '/messages', as, params });
const ids = (body: Record<string, any>): number[] => body.messages.map((m: { id: number }) => m.id);
const newest = (narrow: unknown[], extra: Record<string, unknown> = {}) => ({
  anchor: 'newest',
  num_before: 100,
  num_after: 0,
  narrow,
  ...extra,
});

describe('GET /messages: the seeded messages', () => {
  it('shows Iago the messages register reports, with the same flags', async () => {
    const body = expectSuccess(await fetch(IAGO, { anchor: 'oldest', num_before: 0, num_after: 100 }));
    const flags = Object.fromEntries(body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]));
    expect(flags[5]).toEqual(['read', 'starred']);
    expect(flags[7]).toEqual(['mentioned']);
    expect(flags[8]).toEqual(['wildcard_mentioned']);
    expect(flags[11]).toEqual([]);
    expect(flags[2]).toEqual(['read']);
    expect(
      ids(body)
        .filter((id) => !flags[id].includes('read'))
        .sort((a, b) => a - b),
    ).toEqual([6, 7, 8, 9, 10, 11, 13, 14]);
    expect(body).toMatchObject({ anchor: 0, found_anchor: false, found_oldest: true, found_newest: true, history_limited: false });
  });

  it('builds channel and direct message objects as upstream', async () => {
    const body = expectSuccess(await fetch(IAGO, { anchor: '6', num_before: 0, num_after: 0 }));
    expect(body.messages).toEqual([
      expect.objectContaining({
        id: 6,
        type: 'stream',
        display_recipient: 'Verona',
        stream_id: 3,
        subject: 'test',
        sender_id: 10,
        sender_email: 'hamlet@zulip.com',
        sender_full_name: expect.any(String),
        content: '<p>To be or not to be.</p>',
        content_type: 'text/html',
        flags: [],
      }),
    ]);
    expect(body).toMatchObject({ anchor: 6, found_anchor: true, found_oldest: false, found_newest: false });
    const dm = expectSuccess(await fetch(IAGO, { anchor: '13', num_before: 0, num_after: 0, apply_markdown: false }));
    expect(dm.messages[0]).toMatchObject({
      type: 'private',
      subject: '',
      content: 'group chat',
      content_type: 'text/x-markdown',
      display_recipient: [10, 11, 12].map((id) => expect.objectContaining({ id, is_mirror_dummy: false })),
    });
  });

  it('shows the empty topic as "general chat" unless the client allows empty topic names', async () => {
    expect(expectSuccess(await fetch(IAGO, { anchor: '14', num_before: 0, num_after: 0 })).messages[0].subject).toBe('general chat');
    expect(
      expectSuccess(await fetch(IAGO, { anchor: '14', num_before: 0, num_after: 0, allow_empty_topic_name: true })).messages[0].subject,
    ).toBe('');
  });
});

describe('GET /messages: narrows', () => {
  it.each([
    ['a channel by name', [['stream', 'verona']], [6, 7, 14]],
    ['a channel by id', [{ operator: 'channel', operand: 3 }], [6, 7, 14]],
    [
      'a channel and a topic, case-insensitively',
      [
        ['channel', 'Verona'],
        ['topic', 'TEST'],
      ],
      [6, 7],
    ],
    [
      'the empty topic as "general chat"',
      [
        ['channel', 'Verona'],
        ['topic', 'general chat'],
      ],
      [14],
    ],
    ['a one-on-one conversation by email', [['dm', 'hamlet@zulip.com']], [11, 12]],
    ['a group conversation by ids', [{ operator: 'dm', operand: [10, 12] }], [13]],
    ['the self conversation', [{ operator: 'dm', operand: [11] }], [5]],
    ['every direct message', [['is', 'dm']], [2, 5, 11, 12, 13]],
    ['is:private as is:dm', [['is', 'private']], [2, 5, 11, 12, 13]],
    ['direct messages including a user', [['dm-including', 'othello@zulip.com']], [13]],
    ['unread messages', [['is', 'unread']], [6, 7, 8, 9, 10, 11, 13, 14]],
    ['starred messages', [['is', 'starred']], [3, 5]],
    ['mentions, wildcards included', [['is', 'mentioned']], [7, 8, 10]],
    ['a sender', [['sender', 'hamlet@zulip.com']], [6, 8, 11]],
    [
      'a sender by id, negated',
      [
        { operator: 'sender', operand: 10, negated: true },
        { operator: 'channel', operand: 3 },
      ],
      [7, 14],
    ],
    ['one id', [['id', '7']], [7]],
    [
      'unread in a channel',
      [
        ['channel', 'Verona'],
        ['is', 'unread'],
      ],
      [6, 7, 14],
    ],
    ['an empty dm list', [{ operator: 'dm', operand: [] }], []],
  ])('narrows to %s', async (_name, narrow, expected) => {
    expect(ids(expectSuccess(await fetch(IAGO, newest(narrow))))).toEqual(expected);
  });

  it('reads the whole history of a public channel, unreceived messages flagged read and historical', async () => {
    const body = expectSuccess(await fetch('cordelia@zulip.com', newest([['channel', 'Denmark']])));
    expect(body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([[8, ['read', 'historical']]]);
  });

  it('reads the public channels for channels:public', async () => {
    expect(ids(expectSuccess(await fetch('cordelia@zulip.com', newest([['channels', 'public']]))))).toEqual([1, 4, 6, 7, 8, 9, 10, 14]);
  });

  it('hides a private channel from a user who is not subscribed', async () => {
    expect(ids(expectSuccess(await fetch('othello@zulip.com', newest([['channel', 'core team']]))))).toEqual([]);
    expect(ids(expectSuccess(await fetch(IAGO, newest([['channel', 'core team']]))))).toEqual([3]);
  });

  it('hides from a guest the public channels it is not subscribed to', async () => {
    expect(ids(expectSuccess(await fetch('polonius@zulip.com', newest([['channel', 'Denmark']]))))).toEqual([]);
    expect(ids(expectSuccess(await fetch('polonius@zulip.com', newest([['channel', 'Verona']]))))).toEqual([6, 7, 14]);
  });

  it('never shows another organization message, even by id', async () => {
    expect(ids(expectSuccess(await fetch(IAGO, { message_ids: [15, 6] })))).toEqual([6]);
  });
});

describe('GET /messages: anchors and ranges', () => {
  it('returns the messages around an anchor in id order', async () => {
    const body = expectSuccess(await fetch(IAGO, { anchor: '8', num_before: 2, num_after: 2, narrow: [['is', 'unread']] }));
    expect(ids(body)).toEqual([6, 7, 8, 9, 10]);
    expect(body).toMatchObject({ anchor: 8, found_anchor: true, found_oldest: false, found_newest: false });
  });

  it('says found_oldest and found_newest when the narrow ends within the range', async () => {
    const body = expectSuccess(await fetch(IAGO, { anchor: '7', num_before: 5, num_after: 5, narrow: [['stream', 'Verona']] }));
    expect(ids(body)).toEqual([6, 7, 14]);
    expect(body).toMatchObject({ found_anchor: true, found_oldest: true, found_newest: true });
  });

  it('leaves the anchor out with include_anchor false', async () => {
    const body = expectSuccess(
      await fetch(IAGO, { anchor: '14', num_before: 3, num_after: 0, include_anchor: false, narrow: [['is', 'unread']] }),
    );
    expect(ids(body)).toEqual([10, 11, 13]);
    expect(body).toMatchObject({ found_anchor: false, found_oldest: false });
  });

  it('resolves first_unread to the oldest unread message of the narrow, skipping muted channels', async () => {
    const body = expectSuccess(
      await fetch(IAGO, { anchor: 'first_unread', num_before: 0, num_after: 1, narrow: [['channel', 'Scotland']] }),
    );
    expect(body).toMatchObject({ anchor: 10000000000000000, found_newest: true });
    const all = expectSuccess(await fetch(IAGO, { anchor: 'first_unread', num_before: 1, num_after: 1 }));
    expect(all.anchor).toBe(6);
    expect(ids(all)).toEqual([5, 6, 7]);
  });

  it('answers first_unread without unread messages with the newest anchor', async () => {
    const body = expectSuccess(await fetch(IAGO, { anchor: 'first_unread', num_before: 2, num_after: 2, narrow: [['is', 'starred']] }));
    expect(body).toMatchObject({ anchor: 10000000000000000, found_newest: true, found_anchor: false });
    expect(ids(body)).toEqual([3, 5]);
  });

  it('clamps an anchor above every id and a negative one', async () => {
    expect(expectSuccess(await fetch(IAGO, { anchor: '99999999999999999', num_before: 1, num_after: 0 })).anchor).toBe(10000000000000000);
    expect(expectSuccess(await fetch(IAGO, { anchor: '-3', num_before: 0, num_after: 1 }))).toMatchObject({
      anchor: 0,
      found_oldest: true,
    });
  });

  it('uses the deprecated use_first_unread_anchor whatever anchor says', async () => {
    expect(expectSuccess(await fetch(IAGO, { anchor: 'oldest', use_first_unread_anchor: true, num_before: 0, num_after: 0 })).anchor).toBe(
      6,
    );
  });
});

describe('GET /messages: errors', () => {
  const INCOMPATIBLE = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
  it.each([
    [{ num_before: 1, num_after: 1 }, "Missing 'anchor' argument."],
    [{ anchor: 'bogus', num_before: 1 }, 'Invalid anchor'],
    [{ anchor: 'newest', num_before: -1 }, 'num_before is too small'],
    [{ anchor: 'newest', num_before: 'False' }, 'num_before is not valid JSON'],
    [{ anchor: 'newest', narrow: '{}' }, 'narrow is not a list'],
    [{ anchor: 'newest', narrow: 'x' }, 'narrow is not valid JSON'],
    [{ anchor: 'newest', include_anchor: 3 }, 'include_anchor is not a boolean'],
    [{ anchor: 'newest', num_before: 2500, num_after: 2501 }, 'Too many messages requested (maximum 5000).'],
    [{ anchor: '5', num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
    [{ anchor: 'newest', narrow: [[1, 2]] }, 'Invalid narrow[0]: Value error, element is not a string pair'],
    [{ anchor: 'newest', narrow: [{ operator: 'dm', operand: 3 }] }, 'operand is not a string or an integer list'],
  ])('refuses %j with "%s"', async (params, message) => {
    expectError(await fetch(IAGO, params), message);
  });

  it('refuses message_ids with an anchor, naming the parameters', async () => {
    const result = await fetch(IAGO, { message_ids: [6], anchor: 'newest' });
    expectError(result, `Unsupported parameter combination: ${INCOMPATIBLE}`);
    expect(result.body.parameters).toBe(INCOMPATIBLE);
  });

  it.each([
    [[['foo', 'x']], 'unknown operator foo'],
    [[['has', 'emoji']], "unknown 'has' operand emoji"],
    [[['in', 'inbox']], "unknown 'in' operand inbox"],
    [[['stream', 'Nowhere']], 'unknown channel Nowhere'],
    [[['sender', 'nobody@zulip.com']], 'unknown user nobody@zulip.com'],
    [[['sender', 'king@lear.org']], 'unknown user king@lear.org'],
    [[{ operator: 'dm', operand: [99] }], 'unknown user in [99]'],
    [[['is', 'bogus']], "unknown 'is' operand bogus"],
    [
      [
        ['stream', 'Verona'],
        ['is', 'dm'],
      ],
      'No message can be both a channel message and direct message',
    ],
  ])('refuses the narrow %j with BAD_NARROW', async (narrow, desc) => {
    const result = await fetch(IAGO, newest(narrow));
    expectError(result, `Invalid narrow operator: ${desc}`, 400, 'BAD_NARROW');
    expect(result.body.desc).toBe(desc);
  });
});

describe('GET /messages/{message_id}', () => {
  const one = (as: string, id: number, params: Record<string, unknown> = {}) =>
    call(getOne, { method: 'GET', path: `/messages/${id}`, pathParameters: { message_id: String(id) }, as, params });

  it('returns the message with the caller flags and its raw content', async () => {
    const body = expectSuccess(await one(IAGO, 7));
    expect(body.raw_content).toBe('@**Iago** look at this.');
    expect(body.message).toMatchObject({ id: 7, flags: ['mentioned'], subject: 'test', content_type: 'text/html' });
  });

  it('returns a public channel message the caller did not receive as read and historical', async () => {
    expect(expectSuccess(await one('cordelia@zulip.com', 8)).message.flags).toEqual(['read', 'historical']);
  });

  it.each([
    ['a direct message of others', 'othello@zulip.com', 11],
    ['a private channel message', 'othello@zulip.com', 3],
    ['another organization message', IAGO, 15],
    ['a message that does not exist', IAGO, 999],
    ['a public channel message to a guest', 'polonius@zulip.com', 8],
  ])('answers "Invalid message(s)" for %s', async (_name, as, id) => {
    expectError(await one(as, id), 'Invalid message(s)');
  });
});

// Last in this file: these tests send messages (to Verona, where Iago and everyone are subscribed).
describe('GET /messages: content narrows', () => {
  const send = async (content: string, topic = 'content') =>
    expectSuccess(
      await call(sendHandler, {
        method: 'POST',
        path: '/messages',
        as: 'hamlet@zulip.com',
        params: { type: 'stream', to: 3, topic, content },
      }),
    ).id as number;

  it('narrows to messages with a link, and negated to those without', async () => {
    const linked = await send('see https://example.com/a');
    const plain = await send('no link here');
    const verona = ['channel', 'Verona'];
    expect(ids(expectSuccess(await fetch(IAGO, newest([verona, ['has', 'link']]))))).toEqual([linked]);
    const without = ids(expectSuccess(await fetch(IAGO, newest([verona, { operator: 'has', operand: 'link', negated: true }]))));
    expect(without).toEqual([6, 7, 14, plain]);
  });

  it('answers has:image and has:attachment with the messages that have them (none here)', async () => {
    expect(ids(expectSuccess(await fetch(IAGO, newest([['has', 'image']]))))).toEqual([]);
    expect(ids(expectSuccess(await fetch(IAGO, newest([['has', 'attachment']]))))).toEqual([]);
  });

  it("leaves out the viewer's muted channels for in:home, and keeps them for in:all", async () => {
    const all = ids(expectSuccess(await fetch(IAGO, newest([['in', 'all']]))));
    expect(all).toEqual(expect.arrayContaining([9, 10]));
    const home = ids(expectSuccess(await fetch(IAGO, newest([['in', 'home']]))));
    expect(home).toEqual(all.filter((id) => id !== 9 && id !== 10));
    expect(
      ids(
        expectSuccess(
          await fetch(
            IAGO,
            newest([
              ['channel', 'Scotland'],
              ['in', 'home'],
            ]),
          ),
        ),
      ),
    ).toEqual([9, 10]);
  });
});
