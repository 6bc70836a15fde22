// POST /user_topics, after upstream's test_user_topics.py (MutedTopicsTests, UnmutedTopicsTests,
// UserTopicsTests), against the development data: Hamlet (10) is subscribed to Denmark (1),
// Verona (3) and core team (6, private with protected history); Cordelia (8) only to Verona;
// Iago (11) also to Old Verona (7, archived); Britain (10) is another organization's channel.
// The service clock is frozen, so that last_updated is known.
import { handler } from '../../../functions/topics/update-user-topic';
import { freezeClock } from '../../../lib/clock';
import * as userTopicsStore from '../../../lib/store/user-topics';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const NOW = 1_900_000_000;

const post = (as: string, params: Record<string, unknown>) => call(handler, { method: 'POST', path: '/user_topics', as, params });
const setPolicy = (as: string, streamId: number, topic: string, policy: number) =>
  post(as, { stream_id: streamId, topic, visibility_policy: policy });
const stored = (userId: number) => userTopicsStore.listUserTopicsOfUser(userId, { consistent: true });

// The shared test setup resets the clock after each test.
beforeEach(() => freezeClock(NOW * 1000));

describe('POST /user_topics', () => {
  it("mutes a topic and sends the user's clients muted_topics, then user_topic", async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const other = await openQueue('cordelia@zulip.com');
    expect(expectSuccess(await setPolicy('hamlet@zulip.com', 3, 'Verona3', 1))).toEqual({ result: 'success', msg: '' });
    expect(await queue.drain()).toEqual([
      { type: 'muted_topics', muted_topics: [['Verona', 'Verona3', NOW]] },
      { type: 'user_topic', stream_id: 3, topic_name: 'Verona3', last_updated: NOW, visibility_policy: 1 },
    ]);
    expect(await other.drain()).toEqual([]);
    expect(await stored(10)).toEqual([{ userId: 10, channelId: 3, topic: 'Verona3', visibilityPolicy: 1, lastUpdated: NOW }]);
  });

  it('accepts the same policy again in another case as a success that changes and sends nothing', async () => {
    const before = await stored(10);
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await setPolicy('hamlet@zulip.com', 3, 'VERONA3', 1));
    expect(await queue.drain()).toEqual([]);
    expect(await stored(10)).toEqual(before);
  });

  it('follows a muted topic under another spelling: the event names it as asked, the stored spelling stays', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['user_topic'] });
    expectSuccess(await setPolicy('hamlet@zulip.com', 3, 'verona3', 3));
    expect(await queue.drain()).toEqual([
      { type: 'user_topic', stream_id: 3, topic_name: 'verona3', last_updated: NOW, visibility_policy: 3 },
    ]);
    expect(await stored(10)).toEqual([{ userId: 10, channelId: 3, topic: 'Verona3', visibilityPolicy: 3, lastUpdated: NOW }]);
  });

  it('removes a policy with 0: muted_topics without the topic, and user_topic with policy 0', async () => {
    expectSuccess(await setPolicy('cordelia@zulip.com', 3, 'lunch', 1));
    expectSuccess(await setPolicy('cordelia@zulip.com', 3, 'dinner', 1));
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await setPolicy('cordelia@zulip.com', 3, 'Lunch', 0));
    expect(await queue.drain()).toEqual([
      { type: 'muted_topics', muted_topics: [['Verona', 'dinner', NOW]] },
      { type: 'user_topic', stream_id: 3, topic_name: 'Lunch', last_updated: NOW, visibility_policy: 0 },
    ]);
    expect((await stored(8)).map((t) => t.topic)).toEqual(['dinner']);
  });

  it('accepts removing a policy that is not set as a success that sends nothing', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await setPolicy('cordelia@zulip.com', 3, 'never muted', 0));
    expect(await queue.drain()).toEqual([]);
  });

  it('gives the legacy muted_topics event only to queues that did not ask for user_topic by name', async () => {
    const both = await openQueue('othello@zulip.com');
    const modern = await openQueue('othello@zulip.com', { eventTypes: ['user_topic', 'muted_topics'] });
    const legacy = await openQueue('othello@zulip.com', { eventTypes: ['muted_topics'] });
    expectSuccess(await setPolicy('othello@zulip.com', 1, 'danish', 2));
    const userTopic = { type: 'user_topic', stream_id: 1, topic_name: 'danish', last_updated: NOW, visibility_policy: 2 };
    // An unmuted topic is not in the legacy list, which holds muted topics only.
    expect(await both.drain()).toEqual([{ type: 'muted_topics', muted_topics: [] }, userTopic]);
    expect(await modern.drain()).toEqual([userTopic]);
    expect(await legacy.drain()).toEqual([{ type: 'muted_topics', muted_topics: [] }]);
  });

  it('reads "general chat" as the empty topic, and names it so to clients without empty_topic_name', async () => {
    const plain = await openQueue('ZOE@zulip.com', { eventTypes: ['user_topic'] });
    const capable = await openQueue('ZOE@zulip.com', { eventTypes: ['user_topic'], capabilities: { empty_topic_name: true } });
    expectSuccess(await setPolicy('ZOE@zulip.com', 3, 'general chat', 3));
    const event = { type: 'user_topic', stream_id: 3, last_updated: NOW, visibility_policy: 3 };
    expect(await plain.drain()).toEqual([{ ...event, topic_name: 'general chat' }]);
    expect(await capable.drain()).toEqual([{ ...event, topic_name: '' }]);
    expect(await stored(7)).toEqual([{ userId: 7, channelId: 3, topic: '', visibilityPolicy: 3, lastUpdated: NOW }]);
  });

  it('removes a policy in an archived channel, which the legacy list leaves out', async () => {
    await userTopicsStore.createUserTopic({ userId: 11, channelId: 7, topic: 'old news', visibilityPolicy: 1, lastUpdated: NOW - 60 });
    await userTopicsStore.createUserTopic({ userId: 11, channelId: 3, topic: 'kept', visibilityPolicy: 1, lastUpdated: NOW - 60 });
    const queue = await openQueue('iago@zulip.com');
    expectSuccess(await setPolicy('iago@zulip.com', 7, 'old news', 0));
    expect(await queue.drain()).toEqual([
      { type: 'muted_topics', muted_topics: [['Verona', 'kept', NOW - 60]] },
      { type: 'user_topic', stream_id: 7, topic_name: 'old news', last_updated: NOW, visibility_policy: 0 },
    ]);
  });

  it('removes a policy in a private channel the user cannot read', async () => {
    await userTopicsStore.createUserTopic({ userId: 8, channelId: 6, topic: 'secret plans', visibilityPolicy: 3, lastUpdated: NOW - 60 });
    expectSuccess(await setPolicy('cordelia@zulip.com', 6, 'secret plans', 0));
    expect((await stored(8)).filter((t) => t.channelId === 6)).toEqual([]);
  });

  describe('refuses, changing and sending nothing', () => {
    const ZOE = 'ZOE@zulip.com';
    it.each([
      ['a channel that does not exist', { stream_id: 999999, topic: 'x', visibility_policy: 1 }, 'Invalid channel ID'],
      ["another organization's channel", { stream_id: 10, topic: 'x', visibility_policy: 1 }, 'Invalid channel ID'],
      ['a private channel the user cannot read', { stream_id: 6, topic: 'x', visibility_policy: 3 }, 'Invalid channel ID'],
      ['an archived channel', { stream_id: 7, topic: 'x', visibility_policy: 1 }, 'Invalid channel ID'],
      ['removal in a channel that does not exist', { stream_id: 999999, topic: 'x', visibility_policy: 0 }, 'Invalid channel ID'],
      ["removal in another organization's channel", { stream_id: 10, topic: 'x', visibility_policy: 0 }, 'Invalid channel ID'],
      [
        'a topic over 60 characters',
        { stream_id: 3, topic: 'a'.repeat(61), visibility_policy: 1 },
        'topic is too long (limit: 60 characters)',
      ],
      [
        'an unknown policy',
        { stream_id: 3, topic: 'x', visibility_policy: 999 },
        'Invalid visibility_policy: Value error, Not in the list of possible values',
      ],
      ['a policy that is not JSON', { stream_id: 3, topic: 'x', visibility_policy: 'muted' }, 'visibility_policy is not valid JSON'],
      ['a policy that is not an integer', { stream_id: 3, topic: 'x', visibility_policy: true }, 'visibility_policy is not an integer'],
      ['a channel id that is not JSON', { stream_id: 'Verona', topic: 'x', visibility_policy: 1 }, 'stream_id is not valid JSON'],
    ])('%s', async (_case, params, message) => {
      const queue = await openQueue(ZOE);
      const before = await stored(7);
      expectError(await post(ZOE, params), message);
      expect(await queue.drain()).toEqual([]);
      expect(await stored(7)).toEqual(before);
    });

    it('a request without a topic', async () => {
      const result = await post(ZOE, { stream_id: 3, visibility_policy: 1 });
      expectError(result, "Missing 'topic' argument", 400, 'REQUEST_VARIABLE_MISSING');
      expect(result.body.var_name).toBe('topic');
    });

    it('a guest muting a topic of a public channel it is not subscribed to', async () => {
      const queue = await openQueue('polonius@zulip.com');
      expectError(await setPolicy('polonius@zulip.com', 1, 'x', 1), 'Invalid channel ID');
      expect(await queue.drain()).toEqual([]);
      expect(await stored(13)).toEqual([]);
    });
  });
});
