// The channels I am subscribed to and the ones I can see, and my topic visibility policies
// (muted, unmuted, followed), as register gives them and the subscription, stream and user_topic
// events change them.
import type { RegisterResponse, ServerEvent, Stream, Subscription } from '../api/types';
import { topicKey } from './topic-key';

export type Channels = {
  subs: ReadonlyMap<number, Subscription>;
  streams: ReadonlyMap<number, Stream>;
  /** visibility_policy by topicKey: 1 muted, 2 unmuted, 3 followed (0 is not stored). */
  topicPolicies: ReadonlyMap<string, number>;
};

const byId = <T extends { stream_id: number }>(items: T[]): Map<number, T> => new Map(items.map((item) => [item.stream_id, item]));

export const channelsFromRegister = (register: RegisterResponse): Channels => ({
  subs: byId(register.subscriptions),
  streams: byId([...(register.streams ?? []), ...register.subscriptions]),
  topicPolicies: new Map(
    (register.user_topics ?? [])
      .filter((t) => t.visibility_policy !== 0)
      .map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy]),
  ),
});

const withProperty = <T extends object>(item: T, property: string, value: unknown): T => {
  // in_home_view is the inverse of is_muted, from before is_muted existed.
  if (property === 'in_home_view') return { ...item, is_muted: !value };
  return { ...item, [property]: value };
};

type ChannelEvent = Extract<ServerEvent, { type: 'subscription' | 'stream' | 'user_topic' }>;

export const applyChannelEvent = (channels: Channels, event: ChannelEvent): Channels => {
  if (event.type === 'user_topic') {
    const policies = new Map(channels.topicPolicies);
    const key = topicKey(event.stream_id, event.topic_name);
    if (event.visibility_policy === 0) policies.delete(key);
    else policies.set(key, event.visibility_policy);
    return { ...channels, topicPolicies: policies };
  }
  if (event.type === 'subscription') {
    switch (event.op) {
      case 'add': {
        const subs = new Map(channels.subs);
        const streams = new Map(channels.streams);
        for (const sub of event.subscriptions) {
          subs.set(sub.stream_id, sub);
          streams.set(sub.stream_id, { ...streams.get(sub.stream_id), ...sub });
        }
        return { ...channels, subs, streams };
      }
      case 'remove': {
        const subs = new Map(channels.subs);
        for (const { stream_id } of event.subscriptions) subs.delete(stream_id);
        return { ...channels, subs };
      }
      case 'update': {
        const sub = channels.subs.get(event.stream_id);
        if (!sub) return channels;
        return { ...channels, subs: new Map(channels.subs).set(event.stream_id, withProperty(sub, event.property, event.value)) };
      }
      default:
        return channels;
    }
  }
  switch (event.op) {
    case 'create': {
      const streams = new Map(channels.streams);
      for (const stream of event.streams) streams.set(stream.stream_id, stream);
      return { ...channels, streams };
    }
    case 'delete': {
      const ids = event.stream_ids ?? (event.streams ?? []).map((s) => s.stream_id);
      const streams = new Map(channels.streams);
      const subs = new Map(channels.subs);
      for (const id of ids) {
        streams.delete(id);
        subs.delete(id);
      }
      return { ...channels, streams, subs };
    }
    case 'update': {
      // The privacy event carries the history setting beside invite_only.
      const history = event.history_public_to_subscribers;
      const changed = <T extends object>(item: T): T => {
        const next = withProperty(item, event.property, event.value);
        return history === undefined ? next : { ...next, history_public_to_subscribers: history };
      };
      const stream = channels.streams.get(event.stream_id);
      const sub = channels.subs.get(event.stream_id);
      return {
        ...channels,
        streams: stream ? new Map(channels.streams).set(event.stream_id, changed(stream)) : channels.streams,
        subs: sub ? new Map(channels.subs).set(event.stream_id, changed(sub)) : channels.subs,
      };
    }
  }
};

export const channelName = (channels: Channels, id: number): string | undefined =>
  channels.streams.get(id)?.name ?? channels.subs.get(id)?.name;

export const mutedStreamIds = (channels: Channels): Set<number> =>
  new Set([...channels.subs.values()].filter((sub) => sub.is_muted).map((sub) => sub.stream_id));

/** Upstream's rule: a muted topic is hidden; in a muted channel only unmuted or followed topics show. */
export const isTopicMuted = (channels: Channels, streamId: number, topic: string): boolean => {
  const policy = channels.topicPolicies.get(topicKey(streamId, topic)) ?? 0;
  if (policy === 1) return true;
  return channels.subs.get(streamId)?.is_muted === true && policy !== 2 && policy !== 3;
};

/** The left sidebar's order: pinned first, then by name. */
export const sortedSubscriptions = (channels: Channels): Subscription[] =>
  [...channels.subs.values()].sort((a, b) => Number(!!b.pin_to_top) - Number(!!a.pin_to_top) || a.name.localeCompare(b.name));
