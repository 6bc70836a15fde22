// GET /messages/{message_id}/history: upstream's snapshots, oldest first, each with the topic and
// content right after its edit; the organization's edit history policy. Upstream:
// zerver/tests/test_message_edit.py (test_edit_message_history*, test_edit_history_disabled).
import { handler as history } from '../../../functions/messages/history';
import { advanceClock, freezeClock } from '../../../lib/clock';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { storeMessage } from '../../helpers/stored-messages';
import { withRealm } from '../../helpers/realm';
import { editMessage as patch } from '../../helpers/messages';

const getHistory = (as: string, messageId: number, params: Record<string, unknown> = {}) =>
  call(history, { method: 'GET', path: `/messages/${messageId}/history`, as, params, pathParameters: { message_id: String(messageId) } });

describe('GET /messages/{message_id}/history', () => {
  it('lists only the original for a message never edited', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'plain', content: 'hello' });
    expect(expectSuccess(await getHistory('othello@zulip.com', m.id))).toEqual({
      result: 'success',
      msg: '',
      message_history: [{ topic: 'plain', content: 'hello', rendered_content: '<p>hello</p>', user_id: 10, timestamp: m.dateSent }],
    });
  });

  it('lists each version oldest first, with the previous values of what each edit changed', async () => {
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'v1', content: 'one' });
    advanceClock(10_000);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'two' }));
    advanceClock(10_000);
    expectSuccess(await patch('othello@zulip.com', m.id, { topic: 'v2' }));
    const { message_history: snapshots } = expectSuccess(await getHistory('iago@zulip.com', m.id));
    expect(snapshots).toEqual([
      { topic: 'v1', content: 'one', rendered_content: '<p>one</p>', user_id: 10, timestamp: m.dateSent },
      {
        topic: 'v1',
        content: 'two',
        rendered_content: '<p>two</p>',
        prev_content: 'one',
        prev_rendered_content: '<p>one</p>',
        content_html_diff: '<p>two</p>',
        user_id: 10,
        timestamp: m.dateSent + 10,
      },
      { topic: 'v2', prev_topic: 'v1', content: 'two', rendered_content: '<p>two</p>', user_id: 12, timestamp: m.dateSent + 20 },
    ]);
  });

  it("shows the empty topic as the organization's display name unless allow_empty_topic_name", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: '' });
    expect(expectSuccess(await getHistory('hamlet@zulip.com', m.id)).message_history[0].topic).toBe('general chat');
    expect(expectSuccess(await getHistory('hamlet@zulip.com', m.id, { allow_empty_topic_name: true })).message_history[0].topic).toBe('');
  });

  it('shows only moves under the "moves" policy', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'a', content: 'one' });
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'two' }));
    expectSuccess(await patch('hamlet@zulip.com', m.id, { topic: 'b' }));
    await withRealm({ messageEditSettings: { editHistoryVisibility: 'moves' } }, async () => {
      const { message_history: snapshots } = expectSuccess(await getHistory('hamlet@zulip.com', m.id));
      expect(snapshots.map((s: Record<string, unknown>) => Object.keys(s).sort())).toEqual([
        ['content', 'rendered_content', 'timestamp', 'topic', 'user_id'],
        ['content', 'prev_topic', 'rendered_content', 'timestamp', 'topic', 'user_id'],
      ]);
    });
  });

  it('refuses when the organization shows no edit history', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    await withRealm({ messageEditSettings: { editHistoryVisibility: 'none' } }, async () => {
      expectError(await getHistory('hamlet@zulip.com', m.id), 'Message edit history is disabled in this organization');
    });
  });

  it('answers "Invalid message(s)" for a message the user cannot see', async () => {
    expectError(await getHistory('cordelia@zulip.com', 3), 'Invalid message(s)');
    expectError(await getHistory('hamlet@zulip.com', 15), 'Invalid message(s)');
  });
});
