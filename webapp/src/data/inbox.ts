// The inbox's rows (upstream's #inbox-main), flattened for a windowed list: the direct-message
// folder and each channel's folder (pinned first, then by name), each a header with its unread
// count followed, unless collapsed, by its conversations, newest first. Built in one pass over the
// unread messages, whatever the number of channels.
import type { Channels } from './channels';
import { isTopicMuted, sortedSubscriptions } from './channels';
import { topicKey } from './topic-key';
import type { Unread } from './unread';

export type InboxRow =
  | { kind: 'dm-folder'; count: number; collapsed: boolean }
  | { kind: 'dm'; key: string; count: number; last: boolean }
  | { kind: 'channel'; streamId: number; count: number; collapsed: boolean }
  | { kind: 'topic'; streamId: number; topic: string; count: number; last: boolean };

/** Upstream's names of the collapsed folders (its localStorage `inbox_collapsed_containers`). */
export const DM_FOLDER = 'inbox-dm-header';
export const channelFolder = (streamId: number): string => `inbox-stream-header-${streamId}`;

type Conversation = { topic: string; count: number; newest: number };

const count = <K>(map: Map<K, Conversation>, key: K, topic: string, id: number): void => {
  const entry = map.get(key);
  if (entry) {
    entry.count += 1;
    entry.newest = Math.max(entry.newest, id);
  } else map.set(key, { topic, count: 1, newest: id });
};

const newestFirst = <K>(map: Map<K, Conversation>): [K, Conversation][] => [...map].sort((a, b) => b[1].newest - a[1].newest);

export const inboxRows = (unread: Unread, channels: Channels, collapsed: ReadonlySet<string>): InboxRow[] => {
  const dms = new Map<string, Conversation>();
  const byChannel = new Map<number, Map<string, Conversation>>();
  for (const [id, where] of unread.messages) {
    if (where.kind === 'dm') {
      count(dms, where.key, '', id);
      continue;
    }
    if (!channels.subs.has(where.streamId) || isTopicMuted(channels, where.streamId, where.topic)) continue;
    let topics = byChannel.get(where.streamId);
    if (!topics) byChannel.set(where.streamId, (topics = new Map()));
    count(topics, topicKey(where.streamId, where.topic), where.topic, id);
  }

  const rows: InboxRow[] = [];
  if (dms.size > 0) {
    const open = !collapsed.has(DM_FOLDER);
    const conversations = newestFirst(dms);
    rows.push({ kind: 'dm-folder', count: conversations.reduce((n, [, c]) => n + c.count, 0), collapsed: !open });
    if (open) conversations.forEach(([key, c], i) => rows.push({ kind: 'dm', key, count: c.count, last: i === conversations.length - 1 }));
  }
  for (const sub of sortedSubscriptions(channels)) {
    const topics = byChannel.get(sub.stream_id);
    if (!topics) continue;
    const streamId = sub.stream_id;
    const open = !collapsed.has(channelFolder(streamId));
    const conversations = newestFirst(topics);
    rows.push({ kind: 'channel', streamId, count: conversations.reduce((n, [, c]) => n + c.count, 0), collapsed: !open });
    if (open)
      conversations.forEach(([, c], i) =>
        rows.push({ kind: 'topic', streamId, topic: c.topic, count: c.count, last: i === conversations.length - 1 }),
      );
  }
  return rows;
};

/** Pixels of each kind of row (the view draws them at exactly these heights), and the gap after a folder. */
export const INBOX_HEIGHTS = { folder: 41, conversation: 34, gap: 16 };

/** A row's height: a folder's last row (or its header, collapsed) carries the gap below it. */
export const inboxRowHeight = (row: InboxRow): number => {
  const folder = row.kind === 'dm-folder' || row.kind === 'channel';
  const ends = folder ? row.collapsed : row.last;
  return (folder ? INBOX_HEIGHTS.folder : INBOX_HEIGHTS.conversation) + (ends ? INBOX_HEIGHTS.gap : 0);
};
