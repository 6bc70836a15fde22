// GET /messages with `search` terms, against the search index (PGlite) kept by the searchIndex
// stream consumer: upstream's semantics (zerver/tests/test_message_fetch.py, the search tests):
// stemming and stop words, quoted phrases, search with the other operators, highlights, anchors,
// and access: only what the viewer received, plus the history of a channel the narrow names.
// Development data: Cordelia (8) is in Verona (3) only; Othello (12) in Denmark (1), Scotland (2)
// and Verona; Iago (11) also in core team (6, private, protected history); Polonius (13) is a guest
// in Verona; former@zulip.com is deactivated.
import { handler as subscribe } from '../../../functions/channels/subscribe';
import { handler } from '../../../functions/messages/list';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { deleteMessage, editMessage, sendMessageId } from '../../helpers/messages';
import { pauseSearchDatabase, syncSearchIndex, useSearchIndex } from '../../helpers/search';

useSearchIndex();

const fetch = (as: string, params: Record<string, unknown>) => call(handler, { method: 'GET', path: '/messages', as, params });
const ids = (body: Record<string, any>): number[] => body.messages.map((m: { id: number }) => m.id);
const search = (narrow: unknown[], extra: Record<string, unknown> = {}) => ({
  anchor: 'newest',
  num_before: 100,
  num_after: 0,
  narrow,
  ...extra,
});
/** The ids `as` finds with a search narrow. */
const found = async (as: string, narrow: unknown[]): Promise<number[]> => ids(expectSuccess(await fetch(as, search(narrow))));
const [CORDELIA, OTHELLO, IAGO, POLONIUS] = ['cordelia@zulip.com', 'othello@zulip.com', 'iago@zulip.com', 'polonius@zulip.com'];

const m: Record<string, number> = {};
const toChannel = (as: string, channel: number, topic: string, content: string) =>
  sendMessageId(as, { type: 'stream', to: channel, topic, content });

beforeAll(async () => {
  const hamlet = 'hamlet@zulip.com';
  m.breakfast = await toChannel(hamlet, 3, 'breakfast', 'there are muffins in the conference room');
  m.lunchPlans = await toChannel(hamlet, 3, 'lunch plans', 'I am hungry!');
  m.discuss = await toChannel(hamlet, 3, 'meetings', 'discuss lunch after lunch');
  m.laptops = await toChannel(hamlet, 3, 'meetings', 'please bring your laptops to take notes');
  m.flags = await toChannel(hamlet, 3, 'flags', 'The flags were waving in the wind');
  m.link = await toChannel(hamlet, 3, 'urltest', 'https://google.com');
  m.secret = await toChannel(hamlet, 6, 'plans', 'secret lunch in the core team');
  m.dm = await sendMessageId(hamlet, { type: 'direct', to: JSON.stringify([12]), content: 'lunch at noon?' });
  m.castle = await toChannel(IAGO, 1, 'Elsinore', 'The castle walls are high');
  m.walls = await toChannel(hamlet, 3, 'walls', 'The walls of the castle');
  expect(await syncSearchIndex()).toBeGreaterThanOrEqual(10);
}, 60_000);

describe('GET /messages: search', () => {
  it.each([
    ['a word, in the content or the topic', [['search', 'lunch']], ['lunchPlans', 'discuss']],
    ['a stemmed word ("waving" is "wave")', [['search', 'wave']], ['flags']],
    ['every word of the operand', [['search', 'discuss after']], ['discuss']],
    [
      'several search terms, joined',
      [
        ['search', 'discuss'],
        ['search', 'after'],
      ],
      ['discuss'],
    ],
    ['a quoted phrase as a substring', [['search', '"lunch after"']], ['discuss']],
    ['a quoted phrase in the topic', [['search', '"lunch plans"']], ['lunchPlans']],
    ['a phrase whose words are there but not in that order', [['search', '"castle walls"']], []],
    ['only stop words: nothing', [['search', 'the']], []],
    ['a link by its host', [['search', 'https://google.com']], ['link']],
    [
      'with a sender',
      [
        ['sender', 'hamlet@zulip.com'],
        ['search', 'lunch'],
      ],
      ['lunchPlans', 'discuss'],
    ],
    [
      'with another sender',
      [
        ['sender', 'iago@zulip.com'],
        ['search', 'lunch'],
      ],
      [],
    ],
    [
      'with a topic',
      [
        ['channel', 'Verona'],
        ['topic', 'meetings'],
        ['search', 'lunch'],
      ],
      ['discuss'],
    ],
    ['with a negated topic', [{ operator: 'topic', operand: 'meetings', negated: true }, ['search', 'lunch']], ['lunchPlans']],
    [
      'with has:link',
      [
        ['has', 'link'],
        ['search', 'google.com'],
      ],
      ['link'],
    ],
    ['with a negated has:link', [{ operator: 'has', operand: 'link', negated: true }, ['search', 'google.com lunch']], []],
    ['a host as a whole word only ("google" is not "google.com")', [['search', 'google']], []],
    [
      'with is:dm (none of hers)',
      [
        ['is', 'dm'],
        ['search', 'lunch'],
      ],
      [],
    ],
    [
      'with a negated search term (negation ignored, as upstream)',
      [{ operator: 'search', operand: 'muffins', negated: true }],
      ['breakfast'],
    ],
    [
      'with an id',
      [
        ['id', 'ID:discuss'],
        ['search', 'lunch'],
      ],
      ['discuss'],
    ],
  ])('finds %s', async (_name, narrow, expected) => {
    const withIds = (narrow as unknown[]).map((t) => (Array.isArray(t) && t[0] === 'id' ? ['id', String(m[String(t[1]).slice(3)])] : t));
    expect(ids(expectSuccess(await fetch(CORDELIA, search(withIds))))).toEqual(expected.map((k) => m[k]));
  });

  it("finds a public channel's history only when the narrow names the channel", async () => {
    expect(await found(CORDELIA, [['search', 'castle']])).toEqual([m.walls]);
    expect(
      await found(CORDELIA, [
        ['channel', 'Denmark'],
        ['search', 'castle'],
      ]),
    ).toEqual([m.castle]);
    expect(
      await found(CORDELIA, [
        ['channels', 'public'],
        ['search', '"castle walls"'],
      ]),
    ).toEqual([m.castle]);
  });

  it('never returns a private channel the viewer is not in, nor the direct messages of others', async () => {
    expect(await found(IAGO, [['search', 'lunch']])).toEqual([m.lunchPlans, m.discuss, m.secret]);
    expect(await found(OTHELLO, [['search', 'lunch']])).toEqual([m.lunchPlans, m.discuss, m.dm]);
    expect(
      await found(OTHELLO, [
        ['channel', 'core team'],
        ['search', 'lunch'],
      ]),
    ).toEqual([]);
    expect(
      await found(CORDELIA, [
        ['dm', 'othello@zulip.com'],
        ['search', 'lunch'],
      ]),
    ).toEqual([]);
    expect(
      await found(OTHELLO, [
        ['dm', 'hamlet@zulip.com'],
        ['search', 'noon'],
      ]),
    ).toEqual([m.dm]);
  });

  it("gives a guest only the channels they are in, never another channel's history", async () => {
    expect(await found(POLONIUS, [['search', 'lunch']])).toEqual([m.lunchPlans, m.discuss]);
    expect(
      await found(POLONIUS, [
        ['channel', 'Denmark'],
        ['search', 'castle'],
      ]),
    ).toEqual([]);
    expect(
      await found(POLONIUS, [
        ['channels', 'public'],
        ['search', 'castle'],
      ]),
    ).toEqual([m.walls]);
  });

  it("gives a guest subscribed later nothing from before unless the channel's history is public to subscribers and named", async () => {
    const desdemona = 'desdemona@zulip.com';
    const subscribeGuest = async (channel: string) =>
      expectSuccess(
        await call(subscribe, {
          method: 'POST',
          path: '/users/me/subscriptions',
          as: desdemona,
          params: { subscriptions: JSON.stringify([{ name: channel }]), principals: JSON.stringify([13]) },
        }),
      );
    await subscribeGuest('Denmark');
    await subscribeGuest('core team');
    const after = await toChannel(IAGO, 6, 'plans', 'secret lunch, now with the guest');
    await syncSearchIndex();
    // Received: only what arrived after the subscription, in either channel.
    expect(await found(POLONIUS, [['search', 'castle']])).toEqual([m.walls]);
    expect(await found(POLONIUS, [['search', 'secret']])).toEqual([after]);
    // Named: Denmark's history is public to subscribers (upstream's can_access_stream_history)…
    expect(
      await found(POLONIUS, [
        ['channel', 'Denmark'],
        ['search', 'castle'],
      ]),
    ).toEqual([m.castle]);
    // …core team's is protected: what was said before the guest joined stays out of reach.
    expect(
      await found(POLONIUS, [
        ['channel', 'core team'],
        ['search', 'secret'],
      ]),
    ).toEqual([after]);
  });

  it('refuses a deactivated account before searching', async () => {
    const result = await fetch('former@zulip.com', search([['search', 'lunch']]));
    expect(result.status).toBe(401);
  });

  it("highlights upstream's way: every match in the rendered content and the escaped topic, never inside a tag", async () => {
    const body = expectSuccess(await fetch(CORDELIA, search([['search', 'lunch']])));
    const byId = new Map(body.messages.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(m.discuss)).toMatchObject({
      match_content: '<p>discuss <span class="highlight">lunch</span> after <span class="highlight">lunch</span></p>',
      match_subject: 'meetings',
    });
    expect(byId.get(m.lunchPlans)).toMatchObject({
      match_content: '<p>I am hungry!</p>',
      match_subject: '<span class="highlight">lunch</span> plans',
    });
    const [link] = expectSuccess(await fetch(CORDELIA, search([['search', 'https://google.com']]))).messages;
    expect(link.match_content).toBe(link.content.replace('>https://google.com<', '>https://<span class="highlight">google.com</span><'));
    expect(link.match_content).toContain('href="https://google.com"');
    const [stemmed] = expectSuccess(await fetch(CORDELIA, search([['search', 'wave flag']]))).messages;
    expect(stemmed).toMatchObject({
      match_content: '<p>The <span class="highlight">flags</span> were <span class="highlight">waving</span> in the wind</p>',
      match_subject: '<span class="highlight">flags</span>',
    });
  });

  it('answers anchors and found_oldest/found_newest as for any narrow', async () => {
    const around = expectSuccess(
      await fetch(CORDELIA, { anchor: String(m.discuss), num_before: 1, num_after: 1, narrow: [['search', 'lunch']] }),
    );
    expect(ids(around)).toEqual([m.lunchPlans, m.discuss]);
    expect(around).toMatchObject({ anchor: m.discuss, found_anchor: true, found_oldest: false, found_newest: true });
    const oldest = expectSuccess(await fetch(CORDELIA, { anchor: 'oldest', num_before: 0, num_after: 1, narrow: [['search', 'lunch']] }));
    expect(ids(oldest)).toEqual([m.lunchPlans]);
    expect(oldest).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
    const unread = expectSuccess(
      await fetch(CORDELIA, { anchor: 'first_unread', num_before: 0, num_after: 0, narrow: [['search', 'lunch']] }),
    );
    expect(unread).toMatchObject({ anchor: m.lunchPlans, found_anchor: true });
    expect(ids(unread)).toEqual([m.lunchPlans]);
    const listed = expectSuccess(
      await fetch(CORDELIA, { message_ids: JSON.stringify([m.breakfast, m.discuss]), narrow: [['search', 'lunch']] }),
    );
    expect(ids(listed)).toEqual([m.discuss]);
  });

  it('follows edits, moves and deletions through the stream', async () => {
    const id = await toChannel('hamlet@zulip.com', 3, 'kitchen', 'the soup is ready');
    await syncSearchIndex();
    expect(await found(CORDELIA, [['search', 'soup']])).toEqual([id]);
    expectSuccess(await editMessage('hamlet@zulip.com', id, { content: 'the stew is ready' }));
    expectSuccess(await editMessage('hamlet@zulip.com', id, { topic: 'pantry' }));
    await syncSearchIndex();
    expect(await found(CORDELIA, [['search', 'soup']])).toEqual([]);
    expect(await found(CORDELIA, [['search', 'stew pantry']])).toEqual([id]);
    expectSuccess(await deleteMessage('iago@zulip.com', id));
    await syncSearchIndex();
    expect(await found(IAGO, [['search', 'stew']])).toEqual([]);
  });

  it('retries while the database resumes, and answers 503 with the envelope when it does not resume in time', async () => {
    await pauseSearchDatabase(1500);
    expect(await found(CORDELIA, [['search', 'muffins']])).toEqual([m.breakfast]);
    process.env.SEARCH_RESUME_WAIT_MS = '1000';
    try {
      await pauseSearchDatabase(3000);
      const result = await fetch(CORDELIA, search([['search', 'muffins']]));
      expectError(result, 'Search is starting up after a quiet period; try again in a few seconds.', 503, 'SEARCH_UNAVAILABLE');
      expect(result.headers['retry-after'] ?? result.headers['Retry-After']).toBe('5');
    } finally {
      delete process.env.SEARCH_RESUME_WAIT_MS;
      await pauseSearchDatabase(0);
    }
  });
});
