// The deprecated bulk reads the Python library still calls: POST /mark_all_as_read,
// /mark_stream_as_read and /mark_topic_as_read (upstream's zerver/views/message_flags.py,
// zerver/actions/message_flags.py; tests test_message_flags.py). Development data: Iago (11) has
// unread 6, 7, 14 (Verona, 3), 8 (Denmark, 1), 9, 10 (Scotland, 2), 11 (a DM) and 13 (a group DM).
// The tables are the file's: each test leaves what it marked, so the refusals come first and
// POST /mark_all_as_read last.
import { handler as markAll } from '../../../functions/messages/mark-all-read';
import { handler as markChannel } from '../../../functions/messages/mark-channel-read';
import { handler as markTopic } from '../../../functions/messages/mark-topic-read';
import { getUserMessage } from '../../../lib/store/messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storeMessage } from '../../helpers/stored-messages';

const IAGO = 'iago@zulip.com';
const post = (handler: typeof markAll, path: string, params: Record<string, unknown> = {}, as = IAGO) =>
  call(handler, { method: 'POST', path, as, params });
const isRead = async (userId: number, messageId: number) => (await getUserMessage(userId, messageId))!.flags.includes('read');
const readOf = (ids: number[]) => Promise.all(ids.map((id) => isRead(11, id)));
const SEEDED_UNREAD = [6, 7, 8, 9, 10, 11, 13, 14];
const readEvent = (messages: number[], all = false) => ({
  type: 'update_message_flags',
  op: 'add',
  operation: 'add',
  flag: 'read',
  messages,
  all,
});

describe('POST /mark_stream_as_read', () => {
  it.each([
    [{ stream_id: 999 }, 'Invalid channel ID'],
    [{ stream_id: '"x"' }, 'stream_id is not an integer'],
    [{ stream_id: 'x' }, 'stream_id is not valid JSON'],
  ])('refuses %j with "%s", marking nothing', async (params, message) => {
    const queue = await openQueue(IAGO);
    expectError(await post(markChannel, '/mark_stream_as_read', params), message);
    expect(await readOf(SEEDED_UNREAD)).toEqual(SEEDED_UNREAD.map(() => false));
    expect(await queue.drain()).toEqual([]);
  });

  it('answers "Invalid channel ID" for a private channel the user may not access', async () => {
    expectError(await post(markChannel, '/mark_stream_as_read', { stream_id: 6 }, 'cordelia@zulip.com'), 'Invalid channel ID');
  });

  it('requires stream_id', async () => {
    expectError(await post(markChannel, '/mark_stream_as_read'), "Missing 'stream_id' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it("marks the channel's unread messages read and sends their ids", async () => {
    const queue = await openQueue(IAGO);
    expect(expectSuccess(await post(markChannel, '/mark_stream_as_read', { stream_id: 2 }))).toEqual({ result: 'success', msg: '' });
    expect(await readOf(SEEDED_UNREAD)).toEqual(SEEDED_UNREAD.map((id) => id === 9 || id === 10));
    expect(await queue.drain()).toEqual([readEvent([9, 10])]);
    // Nothing unread left there: success, and no event.
    expectSuccess(await post(markChannel, '/mark_stream_as_read', { stream_id: 2 }));
    expect(await queue.drain()).toEqual([]);
  });
});

describe('POST /mark_topic_as_read', () => {
  it('refuses a topic the user has no message of, marking nothing', async () => {
    const queue = await openQueue(IAGO);
    expectError(await post(markTopic, '/mark_topic_as_read', { stream_id: 1, topic_name: 'nowhere' }), "No such topic 'nowhere'");
    expectError(await post(markTopic, '/mark_topic_as_read', { stream_id: 999, topic_name: 'nowhere' }), 'Invalid channel ID');
    expect(await readOf([6, 7, 8, 14])).toEqual([false, false, false, false]);
    expect(await queue.drain()).toEqual([]);
  });

  it("marks the topic's unread messages read, matching the topic's case-insensitively", async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'Mark Me' });
    const b = await storeMessage({ sender: 10, channelId: 1, topic: 'mark me' });
    const other = await storeMessage({ sender: 10, channelId: 1, topic: 'other' });
    const queue = await openQueue(IAGO);
    const body = expectSuccess(await post(markTopic, '/mark_topic_as_read', { stream_id: 1, topic_name: 'MARK me' }));
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await readOf([a.id, b.id, other.id, 8])).toEqual([true, true, false, false]);
    expect(await queue.drain()).toEqual([readEvent([a.id, b.id])]);
    // A topic the user received, with nothing unread: success, no event.
    expectSuccess(await post(markTopic, '/mark_topic_as_read', { stream_id: 1, topic_name: 'mark me' }));
    expect(await queue.drain()).toEqual([]);
  });

  it('marks the whole channel read for the empty topic, also named "general chat" (as upstream)', async () => {
    const named = await storeMessage({ sender: 10, channelId: 1, topic: 'named' });
    expectSuccess(await post(markTopic, '/mark_topic_as_read', { stream_id: 1, topic_name: 'general chat' }));
    expect(await readOf([8, named.id, 6])).toEqual([true, true, false]);
  });

  it('requires topic_name', async () => {
    expectError(
      await post(markTopic, '/mark_topic_as_read', { stream_id: 1 }),
      "Missing 'topic_name' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });
});

describe('POST /mark_all_as_read', () => {
  it('marks every unread message read and sends one event with no ids and all: true', async () => {
    const fresh = await storeMessage({ sender: 12, channelId: 3, topic: 'fresh' });
    const queue = await openQueue(IAGO);
    expect(expectSuccess(await post(markAll, '/mark_all_as_read'))).toEqual({ result: 'success', msg: '', complete: true });
    expect(await readOf([...SEEDED_UNREAD, fresh.id])).toEqual([...SEEDED_UNREAD, fresh.id].map(() => true));
    expect(await queue.drain()).toEqual([readEvent([], true)]);
    // Another user's rows are untouched.
    expect(await isRead(10, fresh.id)).toBe(false);
    // Nothing left: still complete, still the event.
    expect(expectSuccess(await post(markAll, '/mark_all_as_read')).complete).toBe(true);
    expect(await queue.drain()).toEqual([readEvent([], true)]);
  });
});
