// The left sidebar: the views (Inbox, Combined feed, Mentions, Starred), the channels with their
// unread counts (muted ones dimmed) and the current channel's topics, and the DM conversations.
import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fetchTopics } from '../actions';
import { isTopicMuted, sortedSubscriptions } from '../data/channels';
import { sortedDmKeys } from '../data/dm-conversations';
import { dmKey } from '../data/narrow';
import { namesOf } from '../data/people';
import { topicKey } from '../data/topic-key';
import { offsetsOf, windowOfOffsets } from '../data/windowing';
import { channels, counts, dmConversations, me, messages, narrow, people } from '../store';
import { href } from './links';
import { topWithin } from './scroll';

/** Topics fetched for a channel (GET /users/me/{id}/topics), newest first. */
const fetchedTopics = signal(new Map<number, { name: string; max_id: number }[]>());

const TOPICS_SHOWN = 10;
const DMS_SHOWN = 12;

/** A private channel's mark (an emoji lock needs a font the system may not have). */
const LockIcon = () => (
  <svg class="lock-icon" viewBox="0 0 16 16" width="12" height="12" aria-label="Private">
    <path fill="currentColor" d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 0 0-4 0v2z" />
  </svg>
);

const Count = ({ n }: { n: number | undefined }) => (n ? <span class="unread_count">{n}</span> : null);

const TopicList = ({ streamId }: { streamId: number }) => {
  useEffect(() => {
    fetchTopics(streamId).then(
      (topics) => (fetchedTopics.value = new Map(fetchedTopics.peek()).set(streamId, topics)),
      () => undefined,
    );
  }, [streamId]);
  // Topics by their newest message: fetched, then those of messages received since.
  const newest = new Map<string, { name: string; maxId: number }>();
  const see = (name: string, maxId: number) => {
    const key = topicKey(streamId, name);
    if ((newest.get(key)?.maxId ?? -1) < maxId) newest.set(key, { name, maxId });
  };
  for (const t of fetchedTopics.value.get(streamId) ?? []) see(t.name, t.max_id);
  for (const m of messages.value.values()) if (m.type === 'stream' && m.stream_id === streamId) see(m.subject, m.id);
  const view = narrow.value;
  const currentTopic = view.kind === 'channel' && view.topic !== undefined ? topicKey(streamId, view.topic) : undefined;
  const sorted = [...newest.entries()].sort((a, b) => b[1].maxId - a[1].maxId);
  const shown = sorted.filter(([key], i) => i < TOPICS_SHOWN || key === currentTopic || counts.value.topics.has(key));
  return (
    <ul class="topic-list">
      {shown.map(([key, { name }]) => (
        <li
          key={key}
          class={`topic-list-item${key === currentTopic ? ' active-sub-filter' : ''}${isTopicMuted(channels.value, streamId, name) ? ' muted_topic' : ''}`}
          data-topic-name={name}
        >
          <a href={href({ kind: 'channel', streamId, topic: name })}>
            <span class="topic-name">{name === '' ? <em>general chat</em> : name}</span>
            <Count n={counts.value.topics.get(key)} />
          </a>
        </li>
      ))}
    </ul>
  );
};

/** A channel's row without its topics: its fixed height (CSS), and the rows drawn beyond the viewport. */
const CHANNEL_ROW = 30;
const OVERSCAN = 400;

/**
 * The channels, windowed: a thousand of them make a few dozen rows in the DOM. Every row has the
 * same height but the current channel's, which holds its topics and is measured.
 */
const ChannelList = () => {
  const view = narrow.value;
  const c = counts.value;
  const list = useRef<HTMLUListElement>(null);
  const activeHeight = useRef(CHANNEL_ROW);
  const [viewport, setViewport] = useState({ top: 0, height: 800 });
  const [, remeasured] = useState(0);

  useLayoutEffect(() => {
    const el = list.current;
    const scroller = el?.closest<HTMLElement>('.left-sidebar');
    if (!el || !scroller) return;
    const update = () => setViewport({ top: scroller.scrollTop - topWithin(scroller, el), height: scroller.clientHeight });
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);

  const subs = sortedSubscriptions(channels.value);
  const activeId = view.kind === 'channel' ? view.streamId : undefined;
  const heights = subs.map((sub) => (sub.stream_id === activeId ? activeHeight.current : CHANNEL_ROW));
  const range = windowOfOffsets(offsetsOf(heights), viewport.top, viewport.height, OVERSCAN);

  useLayoutEffect(() => {
    const active = list.current?.querySelector<HTMLElement>('.narrow-filter.active-channel');
    const height = active ? active.offsetHeight : CHANNEL_ROW;
    if (height !== activeHeight.current) {
      activeHeight.current = height;
      remeasured((n) => n + 1);
    }
  });

  return (
    <ul id="stream_filters" class="stream-list" ref={list} style={{ paddingTop: `${range.before}px`, paddingBottom: `${range.after}px` }}>
      {subs.slice(range.start, range.end).map((sub) => {
        const active = sub.stream_id === activeId;
        return (
          <li
            key={sub.stream_id}
            class={`narrow-filter${sub.is_muted ? ' out_of_home_view' : ''}${active ? ' active-channel' : ''}${active && view.kind === 'channel' && view.topic === undefined ? ' active-filter' : ''}`}
            data-stream-id={sub.stream_id}
          >
            <a href={href({ kind: 'channel', streamId: sub.stream_id })}>
              <span class="stream-privacy" style={{ color: sub.color }}>
                {sub.invite_only ? <LockIcon /> : '#'}
              </span>
              <span class="stream-name">{sub.name}</span>
              <Count n={c.streams.get(sub.stream_id)} />
            </a>
            {active && <TopicList streamId={sub.stream_id} />}
          </li>
        );
      })}
    </ul>
  );
};

export const LeftSidebar = () => {
  const view = narrow.value;
  const c = counts.value;
  const self = me.value.userId;
  const everyone = people.value;
  const dmKeys = [...new Set([...sortedDmKeys(dmConversations.value), ...c.dms.keys()])].slice(0, DMS_SHOWN);
  const currentDm = view.kind === 'dm' ? dmKey(view.userIds, self) : undefined;
  const is = (kind: string) => (view.kind === kind ? ' active-filter' : '');
  return (
    <nav id="left-sidebar" class="left-sidebar" aria-label="Views and channels">
      <ul id="global_filters" class="global-filters">
        <li class={`top_left_inbox${is('inbox')}`}>
          <a href="#inbox">
            <span class="filter-icon">▤</span>Inbox
            <Count n={c.total} />
          </a>
        </li>
        <li class={`top_left_all_messages${is('feed')}`}>
          <a href="#feed">
            <span class="filter-icon">≡</span>Combined feed
          </a>
        </li>
        <li class={`top_left_mentions${is('mentioned')}`}>
          <a href="#narrow/is/mentioned">
            <span class="filter-icon">@</span>Mentions
            <Count n={c.mentions} />
          </a>
        </li>
        <li class={`top_left_starred_messages${is('starred')}`}>
          <a href="#narrow/is/starred">
            <span class="filter-icon">★</span>Starred messages
          </a>
        </li>
      </ul>
      <h2 class="sidebar-heading">Channels</h2>
      <ChannelList />
      <h2 class="sidebar-heading">Direct messages</h2>
      <ul id="direct-messages-list" class="dm-list">
        {dmKeys.map((key) => {
          const ids = key.split(',').map(Number);
          return (
            <li key={key} class={`dm-list-item${key === currentDm ? ' active-filter' : ''}`} data-user-ids-string={key}>
              <a href={href({ kind: 'dm', userIds: ids })}>
                <span class="dm-name">
                  {ids.length === 1 && ids[0] === self ? `${namesOf(everyone, ids)} (you)` : namesOf(everyone, ids)}
                </span>
                <Count n={c.dms.get(key)} />
              </a>
            </li>
          );
        })}
        {dmKeys.length === 0 && <li class="sidebar-empty">No direct messages yet.</li>}
      </ul>
    </nav>
  );
};
