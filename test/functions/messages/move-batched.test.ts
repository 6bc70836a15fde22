// PATCH /messages/{message_id} moving more messages than one request moves itself: the request
// moves MOVE_INLINE_MESSAGES (3 here) and the messageMove job the rest, MOVE_JOB_MESSAGES (2 here)
// per run, each run starting the next (lib/actions/messages/move.ts). Against the development data:
// Denmark (1) subscribers 7, 9, 10, 11, 12, 14, 15; Verona (3) everyone. Hamlet (10) moves.
import { handler as register } from '../../../functions/events/register';
import { handler as deleteHandler } from '../../../functions/messages/delete';
import { doMessageMove, type MoveJob } from '../../../lib/actions/messages/move';
import type { Message } from '../../../lib/models/message';
import * as editsStore from '../../../lib/store/message-edits';
import { defineJob, holdJobs, releaseJobs, settleJobs } from '../../../lib/store/jobs';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';
import * as userTopicsStore from '../../../lib/store/user-topics';
import { advanceClock } from '../../../lib/clock';
import { config } from '../../../lib/config';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { startDynamoFaults } from '../../helpers/dynamo-faults';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { withRealm } from '../../helpers/realm';
import { storeMessage } from '../../helpers/stored-messages';
import { editMessage } from '../../helpers/messages';

/** An edit whose jobs this file runs itself. */
const patch = (as: string, messageId: number, params: Record<string, unknown>) => editMessage(as, messageId, params, { settleJobs: false });

const openQueues = (ids: number[]) => openQueuesOf(ids, { capabilities: { empty_topic_name: true } });

/** The runs of the messageMove job started while a test runs (each one's payload), run as registered. */
let runs: MoveJob[] = [];

beforeAll(() => {
  process.env.MOVE_INLINE_MESSAGES = '3';
  process.env.MOVE_JOB_MESSAGES = '2';
  defineJob<MoveJob>('messageMove', async (job) => {
    runs.push(job);
    await doMessageMove(job);
  });
});

afterAll(() => {
  delete process.env.MOVE_INLINE_MESSAGES;
  delete process.env.MOVE_JOB_MESSAGES;
  defineJob('messageMove', doMessageMove);
});

beforeEach(() => {
  runs = [];
});

afterEach(async () => {
  releaseJobs();
  await settleJobs();
});

const storeTopic = async (channelId: number, topic: string, count: number): Promise<Message[]> => {
  const out: Message[] = [];
  for (let i = 0; i < count; i += 1) out.push(await storeMessage({ sender: i % 2 === 0 ? 10 : 12, channelId, topic }));
  return out;
};

const where = async (ids: number[]) =>
  (await editsStore.getEditableMessages(2, ids)).map((m) => ({
    id: m.id,
    streamId: m.streamId,
    topic: m.topic,
    edits: m.editHistory?.length,
  }));

/** Of a queue's events, the moved message ids of its update_message events, in order (a repeated id shows twice). */
const updatedIds = (events: Record<string, any>[]) =>
  events.filter((e) => e.type === 'update_message').flatMap((e) => e.message_ids as number[]);

const noticesOf = (events: Record<string, any>[]) =>
  events.filter((e) => e.type === 'message' && e.message.sender_email === 'notification-bot@zulip.com').map((e) => e.message.content);

const unreadOf = async (email: string) =>
  (
    expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: email,
        params: { fetch_event_types: ['message', 'update_message_flags'], client_capabilities: { empty_topic_name: true } },
      }),
    ).unread_msgs as { streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] }
  ).streams;

describe('PATCH /messages/{message_id}: a move larger than the request moves itself', () => {
  it('moves three in the request and the rest in job runs of two; rows, unread state, events once each, notices once at the end', async () => {
    const topic = await storeTopic(1, 'big move', 10);
    const ids = topic.map((m) => m.id);
    const queues = await openQueues([12, 8, 10]);
    holdJobs();
    const edited = topic[4];
    expectSuccess(
      await patch('hamlet@zulip.com', edited.id, {
        stream_id: 3,
        propagate_mode: 'change_all',
        send_notification_to_old_thread: true,
        send_notification_to_new_thread: true,
      }),
    );
    // The request moved the edited message and the two oldest others; the rest waits for the job.
    const inline = [ids[0], ids[1], edited.id];
    expect((await where(ids)).filter((m) => m.streamId === 3).map((m) => m.id)).toEqual(inline);
    expect(runs).toHaveLength(0);
    const early = await drainQueues(queues);
    expect(updatedIds(early[12])).toEqual(inline);
    expect(noticesOf(early[12])).toEqual([]);

    await settleJobs();
    // The job ran 4 times (2, 2, 2 and 1 message), the last one ending the move.
    expect(runs.map((r) => [r.firstId, r.lastId])).toEqual(Array(4).fill([ids[2], ids[9]]));
    expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 3, topic: 'big move', edits: 1 })));
    expect(await editsStore.listMessageIdsOfTopic(1, 'big move')).toHaveLength(1); // the old topic's notice
    // Othello's rows followed, unread as before (Hamlet sent every other one and has those read).
    const rows = await messagesStore.getUserMessagesByIds(12, ids);
    expect(rows.map((r) => [r.streamId, r.topic])).toEqual(ids.map(() => [3, 'big move']));
    const othelloUnread = (await unreadOf('othello@zulip.com')).filter((s) => s.topic === 'big move');
    // (Notification Bot's two notices are unread too, one in each topic.)
    const moved = new Set(ids);
    expect(othelloUnread.map((s) => [s.stream_id, s.unread_message_ids.filter((id) => moved.has(id))])).toEqual([
      [1, []],
      [3, ids.filter((_, i) => i % 2 === 0)],
    ]);
    const topics = await topicsStore.listTopicsOfChannel(3);
    expect(topics.find((t) => t.topic === 'big move')?.maxMessageId).toBeGreaterThanOrEqual(ids[9]);

    const late = await drainQueues(queues);
    for (const user of [12, 8, 10]) {
      // Each queue got each moved message's update exactly once, in batches of the job's size.
      const all = [...updatedIds(early[user]), ...updatedIds(late[user])];
      expect(all.sort((a, b) => a - b)).toEqual(ids);
      expect(late[user].filter((e) => e.type === 'update_message').map((e) => e.message_ids.length)).toEqual([2, 2, 2, 1]);
      // Every batch's update names the edited message, as upstream's one event does.
      expect(late[user].filter((e) => e.type === 'update_message').every((e) => e.message_id === edited.id)).toBe(true);
    }
    // Cordelia (Verona only) is told without a row.
    expect(late[8].find((e) => e.type === 'update_message')?.flags).toEqual(['read']);
    // The notices come once, after the last batch, as for a move of the whole topic in one request.
    expect(noticesOf(late[12])).toEqual([
      'This topic was moved here from #**Denmark>big move** by @_**King Hamlet|10**.',
      'This topic was moved to #**Verona>big move** by @_**King Hamlet|10**.',
    ]);
    const lastUpdate = late[12].map((e) => e.type).lastIndexOf('update_message');
    expect(late[12].findIndex((e) => e.type === 'message')).toBeGreaterThan(lastUpdate);

    // A run repeated (as Lambda retries it, or a replay of the dead-letter queue) changes nothing more.
    for (const job of [runs[0], runs[3]]) await doMessageMove(job);
    await settleJobs();
    expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 3, topic: 'big move', edits: 1 })));
    const after = await drainQueues(queues);
    expect(after[12]).toEqual([]);
    expect(after[8]).toEqual([]);
  });

  it('counts the whole move in the notices when part of the topic moves (change_later)', async () => {
    const topic = await storeTopic(1, 'later move', 10);
    const ids = topic.map((m) => m.id);
    const queues = await openQueues([12]);
    expectSuccess(
      await patch('hamlet@zulip.com', ids[2], {
        stream_id: 3,
        topic: 'moved later',
        propagate_mode: 'change_later',
        send_notification_to_old_thread: true,
      }),
    );
    await settleJobs();
    expect((await where(ids)).map((m) => [m.streamId, m.topic])).toEqual(
      ids.map((_, i) => (i < 2 ? [1, 'later move'] : [3, 'moved later'])),
    );
    const events = (await drainQueues(queues))[12];
    expect(updatedIds(events).sort((a, b) => a - b)).toEqual(ids.slice(2));
    expect(noticesOf(events)).toEqual([
      '8 messages were moved here from #**Denmark>later move** by @_**King Hamlet|10**.',
      '8 messages were moved from this topic to #**Verona>moved later** by @_**King Hamlet|10**.',
    ]);
  });

  it('renames a topic within its channel the same way, the topic policies moving once after the last batch', async () => {
    const topic = await storeTopic(1, 'old name', 10);
    const ids = topic.map((m) => m.id);
    await userTopicsStore.createUserTopic({ userId: 12, channelId: 1, topic: 'old name', visibilityPolicy: 1, lastUpdated: 1_900_000_000 });
    const queues = await openQueues([12, 9]);
    expectSuccess(await patch('hamlet@zulip.com', ids[0], { topic: 'new name', propagate_mode: 'change_all' }));
    await settleJobs();
    expect(runs).toHaveLength(4);
    expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 1, topic: 'new name', edits: 1 })));
    expect((await messagesStore.getUserMessagesByIds(9, ids)).map((r) => r.topic)).toEqual(ids.map(() => 'new name'));
    expect(await userTopicsStore.getUserTopic(12, 1, 'new name')).toMatchObject({ visibilityPolicy: 1 });
    const events = await drainQueues(queues);
    for (const user of [12, 9]) expect(updatedIds(events[user]).sort((a, b) => a - b)).toEqual(ids);
    expect(events[12].filter((e) => e.type === 'user_topic')).toHaveLength(2);
    // The policies move after the last batch's messages, before its update (upstream's order).
    const types = events[12].map((e) => e.type);
    expect(types.indexOf('user_topic')).toBeGreaterThan(types.indexOf('update_message'));
    expect(types.lastIndexOf('user_topic')).toBeLessThan(types.lastIndexOf('update_message'));
    expect(noticesOf(events[12])).toEqual(['This topic was moved here from #**Denmark>old name** by @_**King Hamlet|10**.']);
    const topics = (await topicsStore.listTopicsOfChannel(1)).map((t) => t.topic.toLowerCase());
    expect(topics).not.toContain('old name');
  });

  it('moves each message once when every run is invoked twice at the same time (duplicated invocations)', async () => {
    defineJob<MoveJob>('messageMove', async (job) => {
      runs.push(job);
      await Promise.all([doMessageMove(job), doMessageMove(job)]);
    });
    try {
      const topic = await storeTopic(1, 'twice', 10);
      const ids = topic.map((m) => m.id);
      const queues = await openQueues([12]);
      expectSuccess(
        await patch('hamlet@zulip.com', ids[0], { stream_id: 3, propagate_mode: 'change_all', send_notification_to_old_thread: true }),
      );
      await settleJobs();
      expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 3, topic: 'twice', edits: 1 })));
      const events = (await drainQueues(queues))[12];
      expect(updatedIds(events).sort((a, b) => a - b)).toEqual(ids);
      expect(noticesOf(events)).toEqual([
        'This topic was moved here from #**Denmark>twice** by @_**King Hamlet|10**.',
        'This topic was moved to #**Verona>twice** by @_**King Hamlet|10**.',
      ]);
    } finally {
      defineJob<MoveJob>('messageMove', async (job) => {
        runs.push(job);
        await doMessageMove(job);
      });
    }
  });

  it("finishes a run that failed after moving its batch's rows: its retry moves the rest, each update once", async () => {
    const topic = await storeTopic(1, 'interrupted', 6);
    const ids = topic.map((m) => m.id);
    const queues = await openQueues([12]);
    holdJobs();
    expectSuccess(await patch('hamlet@zulip.com', ids[0], { stream_id: 3, propagate_mode: 'change_all' }));
    const faults = await startDynamoFaults();
    try {
      // The first message item the job writes fails every SDK attempt: the run fails with its rows moved.
      faults.inject({
        fault: 'error500',
        op: 'UpdateItem',
        when: (req) => req.body.Key?.sk?.S === 'MSG',
        times: config.dynamodbMaxAttempts(),
      });
      await settleJobs();
      expect(faults.dealt()).toHaveLength(config.dynamodbMaxAttempts());
    } finally {
      await faults.stop();
    }
    expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 3, topic: 'interrupted', edits: 1 })));
    expect((await messagesStore.getUserMessagesByIds(12, ids)).map((r) => r.streamId)).toEqual(ids.map(() => 3));
    const events = (await drainQueues(queues))[12];
    expect(updatedIds(events).sort((a, b) => a - b)).toEqual(ids);
    expect(noticesOf(events)).toHaveLength(1);
  });

  it('moves the rest when the edited message is deleted before the job runs', async () => {
    const topic = await storeTopic(1, 'edited then gone', 7);
    const ids = topic.map((m) => m.id);
    const queues = await openQueues([12]);
    holdJobs();
    expectSuccess(await patch('hamlet@zulip.com', ids[0], { stream_id: 3, propagate_mode: 'change_all' }));
    expectSuccess(
      await call(deleteHandler, {
        method: 'DELETE',
        path: `/messages/${ids[0]}`,
        as: 'iago@zulip.com',
        pathParameters: { message_id: String(ids[0]) },
        settleJobs: false,
      }),
    );
    await settleJobs();
    expect(await where(ids.slice(1))).toEqual(ids.slice(1).map((id) => ({ id, streamId: 3, topic: 'edited then gone', edits: 1 })));
    const events = (await drainQueues(queues))[12];
    expect(updatedIds(events).sort((a, b) => a - b)).toEqual(ids);
    expect(noticesOf(events)).toEqual(['This topic was moved here from #**Denmark>edited then gone** by @_**King Hamlet|10**.']);
  });

  it('refuses before anything moves: a topic partly past the time limit stays whole, and no job starts', async () => {
    const old = await storeTopic(1, 'too old', 5);
    advanceClock(3_600_000);
    const recent = await storeTopic(1, 'too old', 5);
    const ids = [...old, ...recent].map((m) => m.id);
    await withRealm({ messageEditSettings: { moveMessagesBetweenStreamsLimitSeconds: 600 } as never }, async () => {
      expectError(
        await patch('hamlet@zulip.com', recent[0].id, { stream_id: 3, propagate_mode: 'change_all' }),
        'You only have permission to move the 5/10 most recent messages in this topic.',
        400,
        'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      );
    });
    await settleJobs();
    expect(runs).toHaveLength(0);
    expect(await where(ids)).toEqual(ids.map((id) => ({ id, streamId: 1, topic: 'too old', edits: undefined })));
  });
});
