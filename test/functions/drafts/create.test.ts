import { handler as createDrafts } from '../../../functions/drafts/create';
import { freezeClock } from '../../../lib/clock';
import * as draftsStore from '../../../lib/store/drafts';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const post = (as: string, drafts: unknown, extra: Record<string, unknown> = {}) =>
  call(createDrafts, { method: 'POST', path: '/drafts', as, params: drafts === undefined ? extra : { drafts, ...extra } });

const draft = (overrides: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: [3],
  topic: 'sync drafts',
  content: 'Hello',
  timestamp: 1595479019,
  ...overrides,
});
const storedDrafts = async (userId = IAGO) => (await draftsStore.listDraftsOfUser(userId)).sort((a, b) => a.id - b.id);
const storedDraft = async (id: number, userId = IAGO) => draftsStore.getDraft(userId, id);

describe('POST /drafts', () => {
  it('creates a channel draft and returns its id', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft()]));
    expect(ids).toHaveLength(1);
    expect(await storedDraft(ids[0])).toEqual({
      id: ids[0],
      userId: IAGO,
      type: 'stream',
      to: [3],
      topic: 'sync drafts',
      content: 'Hello',
      timestamp: 1595479019,
    });
  });

  it('creates several drafts in one call and returns the ids in submission order', async () => {
    const contents = ['first', 'second', 'third'];
    const { ids } = expectSuccess(
      await post(
        'iago@zulip.com',
        contents.map((content) => draft({ content })),
      ),
    );
    expect(ids).toHaveLength(3);
    expect(ids[1]).toBe(ids[0] + 1);
    expect(ids[2]).toBe(ids[0] + 2);
    for (const [i, id] of ids.entries()) expect((await storedDraft(id))?.content).toBe(contents[i]);
  });

  it('gives new drafts ids above the seeded ones', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft()]));
    expect(ids[0]).toBeGreaterThan(3);
  });

  it('fills the timestamp with the current time when it is absent', async () => {
    freezeClock(1_700_000_123_456);
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ timestamp: undefined })]));
    expect((await storedDraft(ids[0]))!.timestamp).toBe(1700000123.456);
  });

  it('treats a null timestamp as absent', async () => {
    freezeClock(1_700_000_456_789);
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ timestamp: null })]));
    expect((await storedDraft(ids[0]))!.timestamp).toBe(1700000456.789);
  });

  it('stores a fractional timestamp as given, rounded to microseconds', async () => {
    // More digits than a double holds, as a client may send: the service keeps what JSON parsing gives.
    // eslint-disable-next-line no-loss-of-precision
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ timestamp: 1595479019.12345678 })]));
    expect((await storedDraft(ids[0]))!.timestamp).toBe(1595479019.123457);
  });

  it('strips surrounding whitespace from the content', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ content: '\n\n  Hello\nworld \t\n' })]));
    expect((await storedDraft(ids[0]))!.content).toBe('Hello\nworld');
  });

  it('truncates content beyond 10000 characters with a marker', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ content: 'x'.repeat(10050) })]));
    const content = (await storedDraft(ids[0]))!.content;
    expect(content).toHaveLength(10000);
    expect(content.endsWith('x\n[message truncated]')).toBe(true);
  });

  it('truncates a topic beyond the organization limit with "..."', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ topic: 't'.repeat(61) })]));
    expect((await storedDraft(ids[0]))!.topic).toBe(`${'t'.repeat(57)}...`);
  });

  it('keeps a topic of exactly the limit', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ topic: 'é'.repeat(60) })]));
    expect((await storedDraft(ids[0]))!.topic).toBe('é'.repeat(60));
  });

  it('stores a one-on-one direct-message draft with the topic blanked', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ type: 'private', to: [10], topic: 'ignored' })]));
    expect(await storedDraft(ids[0])).toMatchObject({ type: 'private', to: [10], topic: '' });
  });

  it('stores a group direct-message draft with the other members in id order', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ type: 'private', to: [14, 8, IAGO, 10, 8], topic: '' })]));
    expect(await storedDraft(ids[0])).toMatchObject({ type: 'private', to: [8, 10, 14] });
  });

  it('stores a draft to oneself with the owner as the target', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ type: 'private', to: [IAGO] })]));
    expect(await storedDraft(ids[0])).toMatchObject({ type: 'private', to: [IAGO] });
  });

  it('stores a direct-message draft without targets as unaddressed', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ type: 'private', to: [], topic: 'lost' })]));
    expect(await storedDraft(ids[0])).toMatchObject({ type: '', to: [], topic: '' });
  });

  it('ignores the targets and topic of an unaddressed draft', async () => {
    const { ids } = expectSuccess(await post('iago@zulip.com', [draft({ type: '', to: [3, 4], topic: 'lost' })]));
    expect(await storedDraft(ids[0])).toMatchObject({ type: '', to: [], topic: '' });
  });

  it.each([
    ['a public channel', 'iago@zulip.com', 2],
    ['a web-public channel', 'iago@zulip.com', 5],
    ['a private channel the user is subscribed to', 'hamlet@zulip.com', 6],
    ['a web-public channel, for a guest', 'polonius@zulip.com', 5],
    ['a public channel the guest is subscribed to', 'polonius@zulip.com', 3],
  ])('accepts a draft to %s', async (_what, email, channelId) => {
    expectSuccess(await post(email, [draft({ to: [channelId] })]));
  });

  it('accepts an empty list and creates nothing', async () => {
    const before = await storedDrafts();
    expect(expectSuccess(await post('iago@zulip.com', [])).ids).toEqual([]);
    expect(await storedDrafts()).toEqual(before);
  });

  it('treats a missing drafts parameter as an empty list, as the contract makes it optional', async () => {
    expect(expectSuccess(await post('iago@zulip.com', undefined)).ids).toEqual([]);
  });

  describe('refuses, creating nothing,', () => {
    it.each([
      ['a channel draft without a target', 'iago@zulip.com', draft({ to: [] }), 'Must specify exactly 1 channel ID for channel messages'],
      [
        'a channel draft with two targets',
        'iago@zulip.com',
        draft({ to: [2, 3] }),
        'Must specify exactly 1 channel ID for channel messages',
      ],
      ['a channel that does not exist', 'iago@zulip.com', draft({ to: [999] }), 'Invalid channel ID'],
      ["another organization's channel", 'iago@zulip.com', draft({ to: [10] }), 'Invalid channel ID'],
      ['a private channel the user is not subscribed to', 'cordelia@zulip.com', draft({ to: [6] }), 'Invalid channel ID'],
      ['an archived channel', 'iago@zulip.com', draft({ to: [7] }), 'Invalid channel ID'],
      ['a public channel a guest is not subscribed to', 'polonius@zulip.com', draft({ to: [1] }), 'Invalid channel ID'],
      [
        'a user that does not exist',
        'iago@zulip.com',
        draft({ type: 'private', to: [10, 99999999999999] }),
        'Invalid user ID 99999999999999',
      ],
      ["another organization's user", 'iago@zulip.com', draft({ type: 'private', to: [20] }), 'Invalid user ID 20'],
      ['a deactivated user', 'iago@zulip.com', draft({ type: 'private', to: [18] }), "'former@zulip.com' is no longer using Zulip."],
      ['a null byte in the content', 'iago@zulip.com', draft({ content: 'a\u0000b' }), 'Message must not contain null bytes'],
      ['a null byte in the topic', 'iago@zulip.com', draft({ topic: 'a\u0000b' }), 'Topic must not contain null bytes'],
      ['a negative timestamp', 'iago@zulip.com', draft({ timestamp: -100 }), 'Timestamp must not be negative.'],
      ['blank content', 'iago@zulip.com', draft({ content: ' \n\t ' }), 'drafts[0]["content"] cannot be blank'],
      ['an unknown type', 'iago@zulip.com', draft({ type: 'direct' }), 'Invalid drafts[0]["type"]'],
      ['an unknown key', 'iago@zulip.com', draft({ foo: 1 }), 'Argument "foo" at drafts[0]["foo"] is unexpected'],
      ['a missing key', 'iago@zulip.com', { type: 'stream', to: [3], content: 'x' }, 'drafts[0]["topic"] field is missing: Field required'],
      ['targets that are not integers', 'iago@zulip.com', draft({ to: ['3'] }), 'drafts[0]["to"][0] is not an integer'],
      [
        'a timestamp that is not a number',
        'iago@zulip.com',
        draft({ timestamp: '1595479019' }),
        'drafts[0]["timestamp"] is not an integer',
      ],
      ['content that is not a string', 'iago@zulip.com', draft({ content: 5 }), 'drafts[0]["content"] is not a string'],
    ])('%s', async (_what, email, bad, msg) => {
      const userId = email === 'iago@zulip.com' ? IAGO : undefined;
      const before = userId ? await storedDrafts(userId) : [];
      expectError(await post(email, [bad]), msg);
      if (userId) expect(await storedDrafts(userId)).toEqual(before);
    });

    it('a batch in which only the last draft is invalid', async () => {
      const before = await storedDrafts();
      expectError(
        await post('iago@zulip.com', [draft(), draft({ type: 'private', to: [10] }), draft({ to: [999] })]),
        'Invalid channel ID',
      );
      expect(await storedDrafts()).toEqual(before);
    });

    it('the message of the first invalid draft of a batch', async () => {
      expectError(
        await post('iago@zulip.com', [draft(), draft({ content: '' }), draft({ to: [999] })]),
        'drafts[1]["content"] cannot be blank',
      );
    });

    it('drafts that are not JSON', async () => {
      expectError(await post('iago@zulip.com', '[{'), 'drafts is not valid JSON');
    });

    it('drafts that are not a list', async () => {
      expectError(await post('iago@zulip.com', { type: 'stream' }), 'drafts is not a list');
    });

    it('more drafts than one transaction holds', async () => {
      const before = await storedDrafts();
      expectError(
        await post(
          'iago@zulip.com',
          Array.from({ length: 101 }, () => draft()),
        ),
        'Too many drafts in one request (limit: 100)',
      );
      expect(await storedDrafts()).toEqual(before);
    });
  });

  it('creates exactly 100 drafts in one call', async () => {
    const before = await storedDrafts();
    const { ids } = expectSuccess(
      await post(
        'iago@zulip.com',
        Array.from({ length: 100 }, (_v, i) => draft({ content: `n${i}` })),
      ),
    );
    expect(ids).toHaveLength(100);
    expect(await storedDrafts()).toHaveLength(before.length + 100);
  });

  it('refuses a user who disabled draft synchronization, before reading parameters', async () => {
    expectError(await post('othello@zulip.com', 'not json'), 'User has disabled synchronizing drafts.');
    expect(await storedDrafts(12)).toEqual([]);
  });

  it("sends one drafts add event with the new drafts to the owner's queues only", async () => {
    const iagoQueue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    const iagoOtherQueue = await openQueue('iago@zulip.com');
    const hamletQueue = await openQueue('hamlet@zulip.com', { eventTypes: ['drafts'] });
    const { ids } = expectSuccess(
      await post('iago@zulip.com', [draft(), draft({ type: 'private', to: [10], topic: 'x', timestamp: 1595479020.9 })]),
    );
    const expected = {
      type: 'drafts',
      op: 'add',
      drafts: [
        { id: ids[0], type: 'stream', to: [3], topic: 'sync drafts', content: 'Hello', timestamp: 1595479019 },
        { id: ids[1], type: 'private', to: [10], topic: '', content: 'Hello', timestamp: 1595479020 },
      ],
    };
    expect(await iagoQueue.drain()).toEqual([expected]);
    expect(await iagoOtherQueue.drain()).toEqual([expected]);
    expect(await hamletQueue.drain()).toEqual([]);
  });

  it('sends no event when a draft is invalid', async () => {
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    expectError(await post('iago@zulip.com', [draft(), draft({ to: [999] })]), 'Invalid channel ID');
    expect(await queue.drain()).toEqual([]);
  });

  it('does not send drafts events to a queue that did not ask for them', async () => {
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['message'] });
    expectSuccess(await post('iago@zulip.com', [draft()]));
    expect(await queue.drain()).toEqual([]);
  });
});
