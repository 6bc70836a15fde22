// The message feed of a view: a windowed list (only the rows near the viewport are in the DOM,
// the rest is spacer), opened at the first unread or at the bottom, kept in place while older
// messages arrive above, following new messages when at the bottom, fetching more near either
// end, and marking read what is seen.
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { dismissLocal, fetchMore, markSeen } from '../actions';
import { channelName as nameOfChannel } from '../data/channels';
import { estimatedHeight, feedRows } from '../data/feed-rows';
import { endsToFetch } from '../data/message-list';
import { narrowMatches } from '../data/narrow';
import { echoAsMessage } from '../data/outbox';
import { namesOf } from '../data/people';
import { anchorAt, offsetsOf, scrollTopFor, windowOfOffsets, type ScrollAnchor } from '../data/windowing';
import { channels, list, me, messages, muted, outbox, people } from '../store';
import { selectedId } from '../ui';
import { MessageRow } from './MessageRow';
import { topWithin } from './scroll';
import { TypingNotice } from './TypingNotice';

/** Pixels of rows drawn beyond each edge of the viewport, and how near an end fetches more. */
const OVERSCAN = 800;
const FETCH_WITHIN = 600;

const rowKeyOf = (el: Element): string => (el as HTMLElement).dataset.rowKey ?? '';

const fetchEnds = (ends: readonly ('older' | 'newer')[]): void => {
  for (const end of ends) void fetchMore(end).catch(() => undefined);
};

export const Feed = () => {
  const current = list.value!;
  const self = me.value;
  const held = messages.value;
  const pending = outbox.value;
  const allChannels = channels.value;
  const everyone = people.value;

  const rows = useMemo(() => {
    const shown = current.ids.map((id) => held.get(id)).filter((m) => m !== undefined);
    const users = (ids: number[]) =>
      ids.map((id) => ({ id, email: everyone.users.get(id)?.email ?? '', full_name: everyone.users.get(id)?.full_name ?? '' }));
    const echoes = current.foundNewest
      ? pending
          .map((local, i) => echoAsMessage(local, i, self, users))
          .filter((m) => narrowMatches(current.narrow, m, self.userId, muted.value))
      : [];
    return feedRows([...shown, ...echoes], self.userId, shown.length);
  }, [current, held, pending, self, everyone]);
  const failures = new Map(pending.map((local, i) => [-(i + 1), local]));

  const scroller = useRef<HTMLDivElement>(null);
  const listBox = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<string, number>());
  // The row kept in place on screen (its top `offset` px below the viewport's top) while rows are
  // added, removed or measured above it: computed from the list's own arithmetic, never from the
  // DOM, so it holds even when the row is outside the rows drawn.
  const anchor = useRef<ScrollAnchor<string> | null>(null);
  const stick = useRef(true);
  const positionedFor = useRef<unknown>(null);
  const [viewport, setViewport] = useState({ top: 0, height: 700 });
  const [, remeasured] = useState(0);

  const { keys, indexOf } = useMemo(() => {
    const keys = rows.map((row) => (row.local ? `local${row.message.id}` : String(row.message.id)));
    return { keys, indexOf: new Map(keys.map((key, i) => [key, i])) };
  }, [rows]);
  const heightKey = (i: number) => `${keys[i]}:${rows[i]!.recipientBar ? 1 : 0}${rows[i]!.dateDivider ? 1 : 0}`;

  // A new view opens at its first unread message, or at the bottom.
  if (positionedFor.current !== current.narrow && rows.length > 0 && !current.loading) {
    positionedFor.current = current.narrow;
    const target = current.target === undefined ? -1 : (indexOf.get(String(current.target)) ?? -1);
    stick.current = target < 0;
    anchor.current = target < 0 ? null : { key: keys[target]!, offset: 8 };
  }

  const heights = rows.map((row, i) => measured.current.get(heightKey(i)) ?? estimatedHeight(row));
  const offsets = offsetsOf(heights);
  const total = offsets[offsets.length - 1]!;
  const anchored = anchor.current && scrollTopFor(offsets, indexOf.get(anchor.current.key) ?? -1, anchor.current);
  const top = stick.current ? Math.max(0, total - viewport.height) : (anchored ?? viewport.top);
  const range = windowOfOffsets(offsets, top, viewport.height, OVERSCAN);

  /** Where the list's rows begin in the scroller (below the "Loading…" line when it shows). */
  const listTop = () => (scroller.current && listBox.current ? topWithin(scroller.current, listBox.current) : 0);

  const markVisible = (el: HTMLDivElement) => {
    if (document.visibilityState !== 'visible' || current.narrow.kind === 'search') return;
    const box = el.getBoundingClientRect();
    const seen: number[] = [];
    for (const row of el.querySelectorAll<HTMLElement>('.message_row[data-message-id]')) {
      const r = row.getBoundingClientRect();
      if (r.bottom > box.top && r.top < box.bottom) seen.push(Number(row.dataset.messageId));
    }
    markSeen(seen);
  };

  /** The ends of the list near the viewport that the server has more beyond. */
  const endsNear = (el: HTMLDivElement) =>
    endsToFetch(current, el.scrollTop, el.scrollHeight - el.scrollTop - el.clientHeight, FETCH_WITHIN);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
    anchor.current = anchorAt(offsets, keys, el.scrollTop - listTop());
    setViewport({ top: el.scrollTop - listTop(), height: el.clientHeight });
    markVisible(el);
    fetchEnds(endsNear(el));
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport({ top: el.scrollTop - listTop(), height: el.clientHeight }));
    observer.observe(el);
    const onVisible = () => markVisible(el);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let changed = false;
    for (const item of el.querySelectorAll<HTMLElement>('.feed-item')) {
      const i = indexOf.get(rowKeyOf(item));
      if (i === undefined) continue;
      const height = item.offsetHeight;
      if (measured.current.get(heightKey(i)) !== height) {
        measured.current.set(heightKey(i), height);
        changed = true;
      }
    }
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (anchored !== undefined && anchored !== null) {
      const wanted = listTop() + anchored;
      if (Math.abs(el.scrollTop - wanted) >= 1) el.scrollTop = wanted;
    }
    if (changed) remeasured((n) => n + 1);
    else {
      markVisible(el);
      // Near an end (a short list, or a reader held at the top) fetches on until the server has no more.
      fetchEnds(endsNear(el));
    }
  });

  const channelName = (id: number) => nameOfChannel(allChannels, id) ?? 'unknown';
  const peopleNames = (ids: number[]) => namesOf(everyone, ids);
  const chosen = selectedId.value;
  const empty = rows.length === 0 && !current.loading && current.foundOldest;

  return (
    <div class="message_feed" id="message_feed_container" ref={scroller} onScroll={onScroll}>
      {current.loading && current.ids.length > 0 && !current.foundOldest && range.start === 0 && <div class="loading_more">Loading…</div>}
      <div class="message_list" ref={listBox} style={{ paddingTop: `${range.before}px`, paddingBottom: `${range.after}px` }}>
        {rows.slice(range.start, range.end).map((row, i) => (
          <MessageRow
            key={keys[range.start + i]}
            row={row}
            me={self.userId}
            channelName={channelName}
            peopleNames={peopleNames}
            failed={row.local ? failures.get(row.message.id)?.failed : undefined}
            onDiscard={row.local ? () => dismissLocal(failures.get(row.message.id)!.localId) : undefined}
            selected={!row.local && row.message.id === chosen}
          />
        ))}
      </div>
      {current.loading && current.ids.length === 0 && <div class="feed_placeholder">Loading messages…</div>}
      {empty && <div class="feed_placeholder">No messages here yet.</div>}
      <TypingNotice narrow={current.narrow} />
    </div>
  );
};
