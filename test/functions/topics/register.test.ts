// Register's user_topics and legacy muted_topics, in step with the user_topic and muted_topics
// events: register, change, drain the events, register again, and the second snapshot is the first
// plus the events. Development data: Hamlet (10) is subscribed to Denmark (1), Verona (3) and core
// team (6); Iago (11) also to Scotland (2, muted) and Old Verona (7, archived).
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { handler as updateUserTopic } from '../../../functions/topics/update-user-topic';
import { handler as muteTopic } from '../../../functions/topics/mute-topic';
import type { ClientCapabilities } from '../../../lib/models/event';
import * as userTopicsStore from '../../../lib/store/user-topics';
import { call, expectSuccess } from '../../helpers/api';

type UserTopicEntry = { stream_id: number; topic_name: string; visibility_policy: number; last_updated: number };

const registerFor = async (
  as: string,
  params: { event_types?: string[]; fetch_event_types?: string[]; client_capabilities?: ClientCapabilities },
) => expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

/** Every event the queue holds, without ids (and without heartbeats). */
const drain = async (as: string, queueId: string) => {
  const body = expectSuccess(
    await call(getEvents, { method: 'GET', path: '/events', as, params: { queue_id: queueId, last_event_id: -1, dont_block: true } }),
  );
  return (body.events as Record<string, any>[]).filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...event }) => event);
};

const setPolicy = async (as: string, streamId: number, topic: string, policy: number) =>
  expectSuccess(
    await call(updateUserTopic, {
      method: 'POST',
      path: '/user_topics',
      as,
      params: { stream_id: streamId, topic, visibility_policy: policy },
    }),
  );

/** Upstream's apply_events for user_topic: 0 removes the topic's entry, any other policy sets it. */
const applyUserTopic = (state: UserTopicEntry[], event: UserTopicEntry): UserTopicEntry[] => {
  const same = (t: UserTopicEntry) => t.stream_id === event.stream_id && t.topic_name.toLowerCase() === event.topic_name.toLowerCase();
  const { stream_id, topic_name, visibility_policy, last_updated } = event;
  const rest = state.filter((t) => !same(t));
  return visibility_policy === 0 ? rest : [...rest, { stream_id, topic_name, visibility_policy, last_updated }];
};

const byTopic = (entries: UserTopicEntry[]) =>
  [...entries].sort((a, b) => a.stream_id - b.stream_id || a.topic_name.localeCompare(b.topic_name));

describe('POST /register: user_topics and muted_topics', () => {
  it('keeps user_topics in step: the previous snapshot plus the user_topic events', async () => {
    await setPolicy('hamlet@zulip.com', 3, 'to unmute', 1);
    await setPolicy('hamlet@zulip.com', 1, 'to remove', 3);
    const before = await registerFor('hamlet@zulip.com', { event_types: ['user_topic'], fetch_event_types: ['user_topic'] });
    expect(byTopic(before.user_topics).map((t: UserTopicEntry) => [t.stream_id, t.topic_name, t.visibility_policy])).toEqual([
      [1, 'to remove', 3],
      [3, 'to unmute', 1],
    ]);
    await setPolicy('hamlet@zulip.com', 3, 'new mute', 1);
    await setPolicy('hamlet@zulip.com', 6, 'secret plans', 3);
    await setPolicy('hamlet@zulip.com', 3, 'to unmute', 2);
    await setPolicy('hamlet@zulip.com', 1, 'to remove', 0);
    await setPolicy('hamlet@zulip.com', 3, 'new mute', 1); // no change: no event
    const events = await drain('hamlet@zulip.com', before.queue_id);
    expect(events.map((e) => [e.type, e.topic_name, e.visibility_policy])).toEqual([
      ['user_topic', 'new mute', 1],
      ['user_topic', 'secret plans', 3],
      ['user_topic', 'to unmute', 2],
      ['user_topic', 'to remove', 0],
    ]);
    const expected = events.reduce<UserTopicEntry[]>((state, event) => applyUserTopic(state, event as UserTopicEntry), before.user_topics);
    const after = await registerFor('hamlet@zulip.com', { fetch_event_types: ['user_topic'] });
    expect(byTopic(after.user_topics)).toEqual(byTopic(expected));
  });

  it('keeps the legacy muted_topics in step: the last muted_topics event is the next snapshot', async () => {
    await setPolicy('cordelia@zulip.com', 3, 'already muted', 1);
    const before = await registerFor('cordelia@zulip.com', { event_types: ['muted_topics'], fetch_event_types: ['muted_topics'] });
    expect(before.muted_topics.map((m: unknown[]) => m[1])).toEqual(['already muted']);
    expect(before).not.toHaveProperty('user_topics');
    const mute = (topic: string, op: 'add' | 'remove') =>
      call(muteTopic, {
        method: 'PATCH',
        path: '/users/me/subscriptions/muted_topics',
        as: 'cordelia@zulip.com',
        params: { stream: 'Verona', topic, op },
      });
    expectSuccess(await mute('lunch', 'add'));
    expectSuccess(await mute('dinner', 'add'));
    expectSuccess(await mute('already muted', 'remove'));
    const events = await drain('cordelia@zulip.com', before.queue_id);
    expect(events.map((e) => e.type)).toEqual(['muted_topics', 'muted_topics', 'muted_topics']);
    const after = await registerFor('cordelia@zulip.com', { fetch_event_types: ['muted_topics'] });
    expect(after.muted_topics).toEqual(events[events.length - 1]!.muted_topics);
    expect(after.muted_topics.map((m: unknown[]) => [m[0], m[1]])).toEqual([
      ['Verona', 'dinner'],
      ['Verona', 'lunch'],
    ]);
  });

  it('sends muted_topics only to a client that did not name user_topic, and both to one that named nothing', async () => {
    expect(await registerFor('othello@zulip.com', { fetch_event_types: ['user_topic', 'muted_topics'] })).not.toHaveProperty(
      'muted_topics',
    );
    const everything = await registerFor('othello@zulip.com', {});
    expect(everything.user_topics).toEqual([]);
    expect(everything.muted_topics).toEqual([]);
  });

  it('leaves out the topics of archived channels, from both sections', async () => {
    await userTopicsStore.createUserTopic({ userId: 11, channelId: 7, topic: 'archived', visibilityPolicy: 1, lastUpdated: 1_800_000_000 });
    await userTopicsStore.createUserTopic({ userId: 11, channelId: 1, topic: 'kept', visibilityPolicy: 1, lastUpdated: 1_800_000_000 });
    const body = await registerFor('iago@zulip.com', {});
    expect(body.user_topics).toEqual([{ stream_id: 1, topic_name: 'kept', visibility_policy: 1, last_updated: 1_800_000_000 }]);
    expect(body.muted_topics).toEqual([['Denmark', 'kept', 1_800_000_000]]);
  });

  it('names the empty topic "general chat" unless the client declares empty_topic_name', async () => {
    await setPolicy('ZOE@zulip.com', 3, '', 3);
    const plain = await registerFor('ZOE@zulip.com', { fetch_event_types: ['user_topic'] });
    const capable = await registerFor('ZOE@zulip.com', {
      fetch_event_types: ['user_topic'],
      client_capabilities: { empty_topic_name: true },
    });
    expect(plain.user_topics.map((t: UserTopicEntry) => t.topic_name)).toEqual(['general chat']);
    expect(capable.user_topics.map((t: UserTopicEntry) => t.topic_name)).toEqual(['']);
  });

  it("leaves a muted topic's unread messages out of unread_msgs' count, and counts a muted channel's unmuted topic", async () => {
    // Iago's unread channel messages: 6 and 7 in Verona "test", 9 and 10 in Scotland (muted) "highlands".
    const unread = async () =>
      (await registerFor('iago@zulip.com', { fetch_event_types: ['message', 'update_message_flags'] })).unread_msgs as {
        count: number;
        streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
      };
    const before = await unread();
    await setPolicy('iago@zulip.com', 3, 'TEST', 1);
    const muted = await unread();
    expect(muted.count).toBe(before.count - 2);
    expect(muted.streams).toEqual(before.streams);
    await setPolicy('iago@zulip.com', 2, 'highlands', 2);
    expect((await unread()).count).toBe(before.count);
    await setPolicy('iago@zulip.com', 3, 'test', 0);
    await setPolicy('iago@zulip.com', 2, 'Highlands', 3);
    expect((await unread()).count).toBe(before.count + 2);
  });
});
