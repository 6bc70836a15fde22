// What GET /messages and GET /messages/{message_id} show of a message's edits and moves, so that a
// client's EDITED and MOVED labels survive a reload: last_edit_timestamp (content edits only, since
// feature level 365), last_moved_timestamp (a channel or topic change that is not a resolve or
// unresolve) and edit_history under the organization's policy. Upstream: zerver/lib/message.py
// (messages_for_ids), zerver/tests/test_message_edit.py. Hamlet (10) sends to Denmark (1).
import { handler as getOne } from '../../../functions/messages/get';
import { handler as list } from '../../../functions/messages/list';
import { advanceClock, freezeClock } from '../../../lib/clock';
import { call, expectSuccess } from '../../helpers/api';
import { storeMessage } from '../../helpers/stored-messages';
import { withRealm } from '../../helpers/realm';
import { editMessage as patch } from '../../helpers/messages';

const HAMLET = 'hamlet@zulip.com';

/** The message as GET /messages (by id) and GET /messages/{id} show it: both must agree. */
const fetched = async (id: number, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
  const listed = expectSuccess(
    await call(list, { method: 'GET', path: '/messages', as: HAMLET, params: { message_ids: JSON.stringify([id]), ...params } }),
  ).messages;
  const one = expectSuccess(
    await call(getOne, { method: 'GET', path: `/messages/${id}`, pathParameters: { message_id: String(id) }, as: HAMLET, params }),
  ).message;
  expect(listed).toEqual([one]);
  return one;
};

const editFields = (m: Record<string, unknown>) => ({
  last_edit_timestamp: m.last_edit_timestamp,
  last_moved_timestamp: m.last_moved_timestamp,
  edit_history: m.edit_history,
});

describe('GET /messages: edited and moved messages', () => {
  it('shows none of the edit fields for a message never edited', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'plain', content: 'hello' });
    const message = await fetched(m.id);
    expect(Object.keys(message).filter((k) => k in editFields(message))).toEqual([]);
  });

  it('shows a content edit as last_edit_timestamp, and no last_moved_timestamp', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'edits', content: 'one' });
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { content: 'two' }));
    expect(editFields(await fetched(m.id))).toEqual({
      last_edit_timestamp: m.dateSent + 10,
      last_moved_timestamp: undefined,
      edit_history: [{ user_id: 10, timestamp: m.dateSent + 10, prev_content: 'one', prev_rendered_content: '<p>one</p>' }],
    });
  });

  it('shows a topic move as last_moved_timestamp, and no last_edit_timestamp (feature level 365)', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'before', content: 'moved' });
    advanceClock(5_000);
    expectSuccess(await patch(HAMLET, m.id, { topic: 'after' }));
    const message = await fetched(m.id);
    expect(message.subject).toBe('after');
    expect(editFields(message)).toEqual({
      last_edit_timestamp: undefined,
      last_moved_timestamp: m.dateSent + 5,
      edit_history: [{ user_id: 10, timestamp: m.dateSent + 5, prev_topic: 'before', topic: 'after' }],
    });
  });

  it('keeps each timestamp at the newest edit of its kind', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'both', content: 'one' });
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { content: 'two' }));
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { topic: 'both moved' }));
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { content: 'three' }));
    const message = await fetched(m.id);
    expect([message.last_edit_timestamp, message.last_moved_timestamp]).toEqual([m.dateSent + 30, m.dateSent + 20]);
    expect((message.edit_history as { timestamp: number }[]).map((e) => e.timestamp)).toEqual([30, 20, 10].map((s) => m.dateSent + s));
  });

  it('does not count resolving or unresolving a topic as a move', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'question', content: 'resolved' });
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { topic: '✔ question' }));
    const message = await fetched(m.id);
    expect(editFields(message)).toEqual({
      last_edit_timestamp: undefined,
      last_moved_timestamp: undefined,
      edit_history: [{ user_id: 10, timestamp: m.dateSent + 10, prev_topic: 'question', topic: '✔ question' }],
    });
  });

  it('keeps the timestamps but shows only moves, or no history, as the organization allows', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'policy', content: 'one' });
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { content: 'two' }));
    advanceClock(10_000);
    expectSuccess(await patch(HAMLET, m.id, { topic: 'policy moved' }));
    const timestamps = { last_edit_timestamp: m.dateSent + 10, last_moved_timestamp: m.dateSent + 20 };
    await withRealm({ messageEditSettings: { editHistoryVisibility: 'moves' } }, async () => {
      expect(editFields(await fetched(m.id))).toEqual({
        ...timestamps,
        edit_history: [{ user_id: 10, timestamp: m.dateSent + 20, prev_topic: 'policy', topic: 'policy moved' }],
      });
    });
    await withRealm({ messageEditSettings: { editHistoryVisibility: 'none' } }, async () => {
      const message = await fetched(m.id);
      expect(editFields(message)).toEqual({ ...timestamps, edit_history: undefined });
      expect('edit_history' in message).toBe(false);
    });
  });

  it('names the empty topic in the history unless the client asks for allow_empty_topic_name', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: '', content: 'untitled' });
    expectSuccess(await patch(HAMLET, m.id, { topic: 'titled' }));
    const entry = (message: Record<string, unknown>) => (message.edit_history as Record<string, unknown>[])[0];
    expect(entry(await fetched(m.id))).toMatchObject({ prev_topic: 'general chat', topic: 'titled' });
    expect(entry(await fetched(m.id, { allow_empty_topic_name: true }))).toMatchObject({ prev_topic: '', topic: 'titled' });
  });
});
