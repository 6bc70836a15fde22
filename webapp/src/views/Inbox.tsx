// The inbox (upstream's #inbox-main): every conversation with unread messages, direct messages
// first, then each channel with its topics, each with its count and a link to it. Each folder
// collapses as upstream's does (remembered in localStorage), and the list is windowed: rows have
// fixed heights, and only those near the viewport are in the DOM, so thousands of conversations
// make a few dozen rows.
import { computed, signal } from '@preact/signals';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { channelName } from '../data/channels';
import { channelFolder, DM_FOLDER, inboxRowHeight, inboxRows, type InboxRow } from '../data/inbox';
import { namesOf } from '../data/people';
import { offsetsOf, windowOfOffsets } from '../data/windowing';
import { channels, me, people, unread } from '../store';
import { href } from './links';

/** Pixels of rows drawn beyond each edge of the viewport. */
const OVERSCAN = 600;
const COLLAPSED_KEY = 'inbox_collapsed_containers';

const loadCollapsed = (): Set<string> => {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    return new Set();
  }
};

const collapsed = signal<ReadonlySet<string>>(loadCollapsed());

const toggleFolder = (key: string): void => {
  const next = new Set(collapsed.value);
  if (!next.delete(key)) next.add(key);
  collapsed.value = next;
  try {
    localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
  } catch {
    // Private browsing may refuse storage: the folder still toggles for this page.
  }
};

const rows = computed(() => inboxRows(unread.value, channels.value, collapsed.value));

const Toggle = ({ folder, isCollapsed, label }: { folder: string; isCollapsed: boolean; label: string }) => (
  <button
    type="button"
    class={`inbox_collapse${isCollapsed ? ' collapsed' : ''}`}
    aria-expanded={!isCollapsed}
    aria-label={`${isCollapsed ? 'Expand' : 'Collapse'} ${label}`}
    onClick={() => toggleFolder(folder)}
  >
    ▾
  </button>
);

const Row = ({ row }: { row: InboxRow }) => {
  const all = channels.value;
  switch (row.kind) {
    case 'dm-folder':
      return (
        <div class={`inbox_folder_header${row.collapsed ? ' collapsed' : ''}`} id={DM_FOLDER}>
          <Toggle folder={DM_FOLDER} isCollapsed={row.collapsed} label="direct messages" />
          <span class="inbox_folder_name">Direct messages</span>
          <span class="unread_count">{row.count}</span>
        </div>
      );
    case 'dm': {
      const ids = row.key.split(',').map(Number);
      const self = me.value.userId;
      return (
        <div class={`inbox_row${row.last ? ' last' : ''}`} data-user-ids-string={row.key}>
          <a href={href({ kind: 'dm', userIds: ids })}>
            {ids.length === 1 && ids[0] === self ? 'You (notes to self)' : namesOf(people.value, ids)}
          </a>
          <span class="unread_count">{row.count}</span>
        </div>
      );
    }
    case 'channel': {
      const sub = all.subs.get(row.streamId);
      const name = channelName(all, row.streamId) ?? 'unknown';
      return (
        <div
          class={`inbox_folder_header${row.collapsed ? ' collapsed' : ''}`}
          id={channelFolder(row.streamId)}
          data-stream-id={row.streamId}
        >
          <Toggle folder={channelFolder(row.streamId)} isCollapsed={row.collapsed} label={`#${name}`} />
          <a href={href({ kind: 'channel', streamId: row.streamId })}>
            <span class="channel_swatch" style={{ background: sub?.color }} />#{name}
          </a>
          <span class="unread_count">{row.count}</span>
        </div>
      );
    }
    case 'topic':
      return (
        <div class={`inbox_row${row.last ? ' last' : ''}`} data-stream-id={row.streamId} data-topic-name={row.topic}>
          <a href={href({ kind: 'channel', streamId: row.streamId, topic: row.topic })}>
            {row.topic === '' ? <em>general chat</em> : row.topic}
          </a>
          <span class="unread_count">{row.count}</span>
        </div>
      );
  }
};

const rowKey = (row: InboxRow): string => {
  switch (row.kind) {
    case 'dm-folder':
      return DM_FOLDER;
    case 'dm':
      return `dm:${row.key}`;
    case 'channel':
      return channelFolder(row.streamId);
    case 'topic':
      return `topic:${row.streamId}:${row.topic}`;
  }
};

export const Inbox = () => {
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ top: 0, height: 800 });
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport({ top: el.scrollTop, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const all = rows.value;
  if (all.length === 0) {
    return (
      <div id="inbox-main" class="inbox" ref={scroller}>
        <div class="inbox_empty">
          <h2>You have no unread messages!</h2>
          <p>
            Catch up in the <a href={href({ kind: 'feed' })}>combined feed</a>, or pick a channel on the left.
          </p>
        </div>
      </div>
    );
  }
  const heights = all.map(inboxRowHeight);
  const range = windowOfOffsets(offsetsOf(heights), viewport.top, viewport.height, OVERSCAN);
  return (
    <div
      id="inbox-main"
      class="inbox"
      ref={scroller}
      onScroll={(e) => setViewport({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
    >
      <div class="inbox_list" style={{ paddingTop: `${range.before}px`, paddingBottom: `${range.after}px` }}>
        {all.slice(range.start, range.end).map((row, i) => (
          <div key={rowKey(row)} class="inbox_item" style={{ height: `${heights[range.start + i]}px` }}>
            <Row row={row} />
          </div>
        ))}
      </div>
    </div>
  );
};
