// The arithmetic of the keyboard shortcuts: which message j and k select, and which topic n opens
// (upstream's next unread topic: the next one with unread messages after the current, in the
// left sidebar's channel order, muted topics skipped, from the start again after the last).
import { isTopicMuted, sortedSubscriptions, type Channels } from './channels';
import { topicKey } from './topic-key';
import type { Unread } from './unread';

/** The id j (+1) or k (-1) selects; with none selected, j starts at the first and k at the last. */
export const nextSelection = (ids: readonly number[], selected: number | undefined, step: 1 | -1): number | undefined => {
  if (ids.length === 0) return undefined;
  const at = selected === undefined ? -1 : ids.indexOf(selected);
  if (at < 0) return step === 1 ? ids[0] : ids[ids.length - 1];
  return ids[Math.min(ids.length - 1, Math.max(0, at + step))];
};

export type TopicRef = { streamId: number; topic: string };

export const nextUnreadTopic = (unread: Unread, channels: Channels, currentTopic: TopicRef | undefined): TopicRef | undefined => {
  const order = new Map(sortedSubscriptions(channels).map((sub, i) => [sub.stream_id, i]));
  const topics = new Map<string, TopicRef & { first: number }>();
  for (const [id, where] of unread.messages) {
    if (where.kind !== 'stream' || !order.has(where.streamId) || isTopicMuted(channels, where.streamId, where.topic)) continue;
    const key = topicKey(where.streamId, where.topic);
    const known = topics.get(key);
    if (!known || id < known.first) topics.set(key, { streamId: where.streamId, topic: where.topic, first: id });
  }
  const sorted = [...topics.values()].sort((a, b) => order.get(a.streamId)! - order.get(b.streamId)! || a.first - b.first);
  if (sorted.length === 0) return undefined;
  const here = currentTopic
    ? sorted.findIndex((t) => topicKey(t.streamId, t.topic) === topicKey(currentTopic.streamId, currentTopic.topic))
    : -1;
  if (here >= 0 && sorted.length === 1) return undefined;
  const later =
    currentTopic && here < 0 ? sorted.find((t) => order.get(t.streamId)! >= (order.get(currentTopic.streamId) ?? -1)) : undefined;
  const next = here >= 0 ? sorted[(here + 1) % sorted.length]! : (later ?? sorted[0]!);
  return { streamId: next.streamId, topic: next.topic };
};
