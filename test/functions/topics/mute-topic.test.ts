// PATCH /users/me/subscriptions/muted_topics, the deprecated muting endpoint that the terminal
// client and older clients use, after upstream's MutedTopicsTestsDeprecated: the same action and
// events as POST /user_topics, by channel id or name. Development data: Hamlet (10) is subscribed
// to Denmark (1), Verona (3) and core team (6); Cordelia (8) only to Verona.
import { handler } from '../../../functions/topics/mute-topic';
import { freezeClock } from '../../../lib/clock';
import * as userTopicsStore from '../../../lib/store/user-topics';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const NOW = 1_900_000_000;

const patch = (as: string, params: Record<string, unknown>) =>
  call(handler, { method: 'PATCH', path: '/users/me/subscriptions/muted_topics', as, params });
const stored = (userId: number) => userTopicsStore.listUserTopicsOfUser(userId, { consistent: true });

// The shared test setup resets the clock after each test.
beforeEach(() => freezeClock(NOW * 1000));

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  it('mutes a topic by channel id, with the same events as POST /user_topics', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('hamlet@zulip.com', { stream_id: 3, topic: 'Verona3', op: 'add' }));
    expect(await queue.drain()).toEqual([
      { type: 'muted_topics', muted_topics: [['Verona', 'Verona3', NOW]] },
      { type: 'user_topic', stream_id: 3, topic_name: 'Verona3', last_updated: NOW, visibility_policy: 1 },
    ]);
  });

  it('accepts muting a muted topic again, in another case, without a change or an event', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('hamlet@zulip.com', { stream_id: 3, topic: 'VERONA3', op: 'add' }));
    expect(await queue.drain()).toEqual([]);
    expect((await stored(10)).map((t) => t.topic)).toEqual(['Verona3']);
  });

  it('unmutes a topic by channel name, ignoring the case of both', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['user_topic'] });
    expectSuccess(await patch('hamlet@zulip.com', { stream: 'verona', topic: 'vERONA3', op: 'remove' }));
    expect(await queue.drain()).toEqual([
      { type: 'user_topic', stream_id: 3, topic_name: 'vERONA3', last_updated: NOW, visibility_policy: 0 },
    ]);
    expect(await stored(10)).toEqual([]);
  });

  it('mutes a topic by channel name', async () => {
    expectSuccess(await patch('hamlet@zulip.com', { stream: 'Denmark', topic: 'herring', op: 'add' }));
    expect(await stored(10)).toEqual([{ userId: 10, channelId: 1, topic: 'herring', visibilityPolicy: 1, lastUpdated: NOW }]);
  });

  it('accepts unmuting a topic that is not muted as a success that sends nothing', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await patch('cordelia@zulip.com', { stream: 'Verona', topic: 'BOGUS', op: 'remove' }));
    expect(await queue.drain()).toEqual([]);
  });

  it('unmutes a followed topic: removing the policy, whatever it is', async () => {
    await userTopicsStore.createUserTopic({ userId: 8, channelId: 3, topic: 'followed', visibilityPolicy: 3, lastUpdated: NOW - 60 });
    expectSuccess(await patch('cordelia@zulip.com', { stream_id: 3, topic: 'followed', op: 'remove' }));
    expect(await stored(8)).toEqual([]);
  });

  describe('refuses, changing and sending nothing', () => {
    it.each([
      ['muting in a channel that does not exist', { stream_id: 999999, topic: 'Verona3', op: 'add' }, 'Invalid channel ID'],
      ['muting in a private channel the user cannot read', { stream_id: 6, topic: 'x', op: 'add' }, 'Invalid channel ID'],
      ['muting in a channel named wrongly', { stream: 'BOGUS', topic: 'x', op: 'add' }, "Invalid channel name 'BOGUS'"],
      ['muting in a private channel by name', { stream: 'core team', topic: 'x', op: 'add' }, "Invalid channel name 'core team'"],
      ['unmuting in a channel named wrongly', { stream: 'BOGUS', topic: 'Verona3', op: 'remove' }, 'Topic is not muted'],
      ['unmuting in a channel that does not exist', { stream_id: 999999, topic: 'BOGUS', op: 'remove' }, 'Topic is not muted'],
      ["unmuting in another organization's channel", { stream_id: 10, topic: 'x', op: 'remove' }, 'Topic is not muted'],
      ['no channel', { topic: 'Verona3', op: 'add' }, "Missing 'stream_id' argument"],
      ['a topic over 60 characters', { stream_id: 3, topic: 'a'.repeat(61), op: 'add' }, 'topic is too long (limit: 60 characters)'],
      ['an unknown op', { stream_id: 3, topic: 'x', op: 'toggle' }, 'Invalid op'],
    ])('%s', async (_case, params, message) => {
      const queue = await openQueue('cordelia@zulip.com');
      const before = await stored(8);
      expectError(await patch('cordelia@zulip.com', params), message);
      expect(await queue.drain()).toEqual([]);
      expect(await stored(8)).toEqual(before);
    });

    it('both a channel id and a name', async () => {
      const result = await patch('cordelia@zulip.com', { stream: 'Verona', stream_id: 3, topic: 'Verona3', op: 'add' });
      expectError(result, 'Unsupported parameter combination: stream_id, stream');
      expect(result.body.parameters).toBe('stream_id, stream');
      expect(await stored(8)).toEqual([]);
    });

    it('a request without op', async () => {
      expectError(
        await patch('cordelia@zulip.com', { stream_id: 3, topic: 'x' }),
        "Missing 'op' argument",
        400,
        'REQUEST_VARIABLE_MISSING',
      );
    });
  });
});
