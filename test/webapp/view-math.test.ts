// The web app's pure view rules: the page title, the feed's recipient bars and date dividers, the
// windowed list's arithmetic, and presence's active/idle/offline.
import { feedRows } from '../../webapp/src/data/feed-rows';
import { presenceStatus } from '../../webapp/src/data/people';
import { pageTitle, viewTitle } from '../../webapp/src/data/title';
import { offsetsOf, windowRange } from '../../webapp/src/data/windowing';
import { channelMessage, DENMARK, directMessage, HAMLET, ME, OTHELLO, state } from './fixtures';

describe('webapp page title', () => {
  const s = state();
  it.each([
    [{ kind: 'inbox' as const }, 'Inbox'],
    [{ kind: 'feed' as const }, 'Combined feed'],
    [{ kind: 'channel' as const, streamId: DENMARK }, '#Denmark'],
    [{ kind: 'channel' as const, streamId: DENMARK, topic: 'castle' }, '#Denmark > castle'],
    [{ kind: 'dm' as const, userIds: [OTHELLO, HAMLET] }, 'King Hamlet, Othello, the Moor of Venice'],
    [{ kind: 'mentioned' as const }, 'Mentions'],
    [{ kind: 'starred' as const }, 'Starred messages'],
  ])('names %j as upstream does', (narrow, title) => {
    expect(viewTitle(narrow, s.channels, s.people, ME)).toBe(title);
  });

  it('puts the unread count first, and leaves it out at zero', () => {
    expect(pageTitle(7, '#Denmark', 'Zulip Dev')).toBe('(7) #Denmark - Zulip Dev - Zulip');
    expect(pageTitle(0, 'Inbox', 'Zulip Dev')).toBe('Inbox - Zulip Dev - Zulip');
  });
});

describe('webapp feed rows', () => {
  it('draws a recipient bar when the conversation changes and a date divider when the day does', () => {
    const day = 86_400;
    const messages = [
      channelMessage(1, DENMARK, 'castle', { timestamp: 10 * day + 100 }),
      channelMessage(2, DENMARK, 'Castle', { timestamp: 10 * day + 200 }),
      channelMessage(3, DENMARK, 'moat', { timestamp: 10 * day + 300 }),
      directMessage(4, [ME, HAMLET], { timestamp: 10 * day + 400 }),
      directMessage(5, [HAMLET, ME], { timestamp: 10 * day + 500 }),
      directMessage(6, [ME, HAMLET], { timestamp: 12 * day + 500 }),
    ];
    const rows = feedRows(messages, ME, 5);
    expect(rows.map((r) => [r.recipientBar, r.dateDivider, r.local])).toEqual([
      [true, true, false],
      [false, false, false],
      [true, false, false],
      [true, false, false],
      [false, false, false],
      [true, true, true],
    ]);
  });
});

describe('webapp windowed list', () => {
  const heights = Array.from({ length: 5000 }, () => 50);

  it('draws only the rows near the viewport, with the rest as space above and below', () => {
    const range = windowRange(heights, 100_000, 800, 400);
    expect(range).toEqual({ start: 1992, end: 2025, before: 99_600, after: (5000 - 2025) * 50 });
    expect(range.end - range.start).toBeLessThan(40);
    expect(range.before + (range.end - range.start) * 50 + range.after).toBe(250_000);
  });

  it('starts at the top and stops at the bottom', () => {
    expect(windowRange(heights, 0, 800, 400)).toMatchObject({ start: 0, before: 0, end: 25 });
    expect(windowRange(heights, 250_000 - 800, 800, 400)).toMatchObject({ end: 5000, after: 0 });
    expect(windowRange([], 0, 800, 400)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });

  it('adds up rows of different heights', () => {
    expect(offsetsOf([10, 20, 30])).toEqual([0, 10, 30, 60]);
    expect(windowRange([10, 20, 30, 40], 25, 10, 0)).toEqual({ start: 1, end: 3, before: 10, after: 40 });
  });
});

describe('webapp presence', () => {
  it.each([
    [{ active_timestamp: 1000, idle_timestamp: 1000 }, 1100, 'active'],
    [{ active_timestamp: 700, idle_timestamp: 1000 }, 1100, 'idle'],
    [{ active_timestamp: 700, idle_timestamp: 800 }, 1100, 'offline'],
    [undefined, 1100, 'offline'],
  ])('reads %j at %i as %s (offline after 200 s)', (times, now, status) => {
    expect(presenceStatus(times, now, 200)).toBe(status);
  });
});
