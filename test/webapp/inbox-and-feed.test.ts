// The web app's inbox rows (one pass over the unread messages, folders that collapse, fixed
// heights for the windowed list), and the feed's scroll arithmetic: the anchor that keeps a row in
// place while older messages arrive above it, and when to fetch more at either end.
import { DM_FOLDER, channelFolder, inboxRowHeight, inboxRows, INBOX_HEIGHTS } from '../../webapp/src/data/inbox';
import { endsToFetch, type MessageList } from '../../webapp/src/data/message-list';
import { anchorAt, offsetsOf, scrollTopFor } from '../../webapp/src/data/windowing';
import { DENMARK, HAMLET, OTHELLO, state, VERONA } from './fixtures';

const unreadState = () =>
  state({
    unread_msgs: {
      count: 6,
      pms: [{ other_user_id: HAMLET, unread_message_ids: [5] }],
      streams: [
        { stream_id: DENMARK, topic: 'castle', unread_message_ids: [1, 2] },
        { stream_id: DENMARK, topic: 'moat', unread_message_ids: [7] },
        { stream_id: VERONA, topic: 'balcony', unread_message_ids: [3] },
        { stream_id: VERONA, topic: 'muted', unread_message_ids: [4] },
      ],
      huddles: [{ user_ids_string: `11,${HAMLET},${OTHELLO}`, unread_message_ids: [6] }],
      mentions: [],
    },
    user_topics: [{ stream_id: VERONA, topic_name: 'muted', visibility_policy: 1 }],
  });

describe('webapp inbox rows', () => {
  it('lists the DMs, then each channel by name with its topics newest first, muted topics left out', () => {
    const s = unreadState();
    const rows = inboxRows(s.unread, s.channels, new Set());
    expect(rows).toEqual([
      { kind: 'dm-folder', count: 2, collapsed: false },
      { kind: 'dm', key: `${HAMLET},${OTHELLO}`, count: 1, last: false },
      { kind: 'dm', key: String(HAMLET), count: 1, last: true },
      { kind: 'channel', streamId: DENMARK, count: 3, collapsed: false },
      { kind: 'topic', streamId: DENMARK, topic: 'moat', count: 1, last: false },
      { kind: 'topic', streamId: DENMARK, topic: 'castle', count: 2, last: true },
      { kind: 'channel', streamId: VERONA, count: 1, collapsed: false },
      { kind: 'topic', streamId: VERONA, topic: 'balcony', count: 1, last: true },
    ]);
  });

  it('keeps a collapsed folder’s header and count, without its conversations', () => {
    const s = unreadState();
    const rows = inboxRows(s.unread, s.channels, new Set([DM_FOLDER, channelFolder(DENMARK)]));
    expect(rows.map((r) => r.kind)).toEqual(['dm-folder', 'channel', 'channel', 'topic']);
    expect(rows[1]).toEqual({ kind: 'channel', streamId: DENMARK, count: 3, collapsed: true });
  });

  it('gives each row a fixed height, the gap below a folder’s last row or collapsed header', () => {
    const s = unreadState();
    const heights = inboxRows(s.unread, s.channels, new Set([DM_FOLDER])).map(inboxRowHeight);
    const { folder, conversation, gap } = INBOX_HEIGHTS;
    expect(heights).toEqual([folder + gap, folder, conversation, conversation + gap, folder, conversation + gap]);
  });

  it('groups 10,000 unread messages of 1,000 channels in one pass', () => {
    const streams = Array.from({ length: 1000 }, (_, c) => ({
      stream_id: 1000 + c,
      topic: `t${c % 5}`,
      unread_message_ids: [] as number[],
    }));
    for (let id = 0; id < 10_000; id += 1) streams[id % 1000]!.unread_message_ids.push(id);
    const subscriptions = streams.map((st) => ({
      stream_id: st.stream_id,
      name: `c${st.stream_id}`,
      color: '#fff',
      is_muted: false,
      invite_only: false,
      description: '',
    }));
    const s = state({ subscriptions, unread_msgs: { count: 10_000, pms: [], streams, huddles: [], mentions: [] } });
    const started = performance.now();
    const rows = inboxRows(s.unread, s.channels, new Set());
    expect(performance.now() - started).toBeLessThan(500);
    expect(rows).toHaveLength(2000);
    expect(rows.filter((r) => r.kind === 'topic').reduce((n, r) => n + r.count, 0)).toBe(10_000);
  });
});

describe('webapp feed scrolling', () => {
  const heights = [100, 50, 50, 100];
  const offsets = offsetsOf(heights);

  it('anchors the row at the viewport’s top edge, and puts it back there after rows arrive above', () => {
    const anchor = anchorAt(offsets, ['a', 'b', 'c', 'd'], 120)!;
    expect(anchor).toEqual({ key: 'b', offset: -20 });
    // 100 messages of 60 px arrive above: row b is now row 101.
    const grown = offsetsOf([...Array.from({ length: 100 }, () => 60), ...heights]);
    expect(scrollTopFor(grown, 101, anchor)).toBe(6000 + 120);
    expect(scrollTopFor(grown, -1, anchor)).toBeUndefined();
    expect(anchorAt(offsetsOf([]), [], 0)).toBeNull();
  });

  const list = (fields: Partial<MessageList> = {}): MessageList => ({
    narrow: { kind: 'channel', streamId: DENMARK },
    ids: [1, 2, 3],
    foundOldest: false,
    foundNewest: true,
    loading: false,
    ...fields,
  });

  it('fetches older messages while the reader is near the top, until the oldest', () => {
    expect(endsToFetch(list(), 0, 5000, 600)).toEqual(['older']);
    expect(endsToFetch(list(), 599, 5000, 600)).toEqual(['older']);
    expect(endsToFetch(list(), 2000, 5000, 600)).toEqual([]);
    expect(endsToFetch(list({ foundOldest: true }), 0, 5000, 600)).toEqual([]);
    expect(endsToFetch(list({ loading: true }), 0, 5000, 600)).toEqual([]);
    expect(endsToFetch(list({ foundNewest: false }), 0, 100, 600)).toEqual(['older', 'newer']);
    expect(endsToFetch(list({ ids: [] }), 0, 0, 600)).toEqual([]);
  });
});
