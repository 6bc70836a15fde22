// The stored edit history and what readers see of it: upstream's visibility policies,
// last_edit_timestamp / last_moved_timestamp, and GET /messages/{id}/history's snapshots.
import {
  type EditHistoryEntry,
  historySnapshots,
  isResolveToggle,
  lastEditTimestamp,
  lastMovedTimestamp,
  visibleEditHistory,
  withinTimeLimit,
} from '../../../lib/models/message-edit';

// Newest first, as stored: a resolve at 400, a topic move at 300, a content edit at 200.
const history: EditHistoryEntry[] = [
  { user_id: 11, timestamp: 400, prev_topic: 'lunch', topic: '✔ lunch' },
  { user_id: 8, timestamp: 300, prev_topic: 'food', topic: 'lunch' },
  { user_id: 10, timestamp: 200, prev_content: 'hi', prev_rendered_content: '<p>hi</p>' },
];
const current = { topic: '✔ lunch', content: 'hello', renderedContent: '<p>hello</p>', senderId: 10, dateSent: 100, streamId: 3 };

describe('message edit history', () => {
  it('shows everything under the "all" policy', () => {
    expect(visibleEditHistory(history, 'all')).toEqual(history);
  });

  it('shows only the moves, without content, under the "moves" policy', () => {
    expect(visibleEditHistory(history, 'moves')).toEqual(history.slice(0, 2));
  });

  it('shows no history under the "none" policy', () => {
    expect(visibleEditHistory(history, 'none')).toBeUndefined();
  });

  it('dates the last edit by the newest content edit, and the last move by the newest move that is not a resolve', () => {
    expect(lastEditTimestamp(history)).toBe(200);
    expect(lastMovedTimestamp(history)).toBe(300);
    expect(lastEditTimestamp(history.slice(0, 2))).toBeUndefined();
  });

  it('tells a resolve or unresolve from a rename', () => {
    expect(isResolveToggle('lunch', '✔ lunch')).toBe(true);
    expect(isResolveToggle('✔ lunch', 'lunch')).toBe(true);
    expect(isResolveToggle('lunch', '✔ dinner')).toBe(false);
  });

  it('counts the limit inclusively and a null limit as none', () => {
    expect(withinTimeLimit(0, 620, 600, 20)).toBe(true);
    expect(withinTimeLimit(0, 621, 600, 20)).toBe(false);
    expect(withinTimeLimit(0, 10 ** 9, null, 0)).toBe(true);
  });

  it('lists the snapshots oldest first, each with the state right after its edit, the original first', () => {
    expect(historySnapshots(current, history)).toEqual([
      { topic: 'food', content: 'hi', rendered_content: '<p>hi</p>', user_id: 10, timestamp: 100 },
      {
        topic: 'food',
        content: 'hello',
        rendered_content: '<p>hello</p>',
        prev_content: 'hi',
        prev_rendered_content: '<p>hi</p>',
        content_html_diff: '<p>hello</p>',
        user_id: 10,
        timestamp: 200,
      },
      { topic: 'lunch', prev_topic: 'food', content: 'hello', rendered_content: '<p>hello</p>', user_id: 8, timestamp: 300 },
      { topic: '✔ lunch', prev_topic: 'lunch', content: 'hello', rendered_content: '<p>hello</p>', user_id: 11, timestamp: 400 },
    ]);
  });

  it('lists only the original for a message never edited', () => {
    expect(historySnapshots(current, [])).toEqual([
      { topic: '✔ lunch', content: 'hello', rendered_content: '<p>hello</p>', user_id: 10, timestamp: 100 },
    ]);
  });
});
