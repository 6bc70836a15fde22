// A user's personal policy for one topic of a channel (upstream's UserTopic): muted, unmuted (in a
// muted channel) or followed; no policy ("inherit") is the absence of the item. Topics compare
// case-insensitively, as upstream's topic_name__iexact; the stored name keeps the spelling under
// which the policy was first set (a later change of policy updates only the policy and the time).
import type { Channel } from './channel';

/** Upstream's UserTopic.VisibilityPolicy values, as the API sends them. */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicyValue = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];
/** A policy a stored item can hold: every value but INHERIT, which is no item. */
export type StoredVisibilityPolicy = Exclude<VisibilityPolicyValue, 0>;

export const VISIBILITY_POLICY_VALUES: readonly VisibilityPolicyValue[] = [0, 1, 2, 3];

export type UserTopic = {
  userId: number;
  channelId: number;
  /** The topic as first given (compared lowercased). */
  topic: string;
  visibilityPolicy: StoredVisibilityPolicy;
  /** When the policy last changed, UNIX seconds. */
  lastUpdated: number;
};

/** One entry of register's `user_topics`. */
export type ApiUserTopic = { stream_id: number; topic_name: string; visibility_policy: number; last_updated: number };

export const apiUserTopic = (t: UserTopic): ApiUserTopic => ({
  stream_id: t.channelId,
  topic_name: t.topic,
  visibility_policy: t.visibilityPolicy,
  last_updated: t.lastUpdated,
});

/** The key a policy is found under within a user's policies: the channel and the lowercased topic. */
export const userTopicLookupKey = (channelId: number, topic: string): string => `${channelId}\u0000${topic.toLowerCase()}`;

/**
 * Upstream's rule for whether a channel message is muted for a user (zerver/lib/message.py,
 * the unread summary): in a muted channel, unless the topic is unmuted or followed; in any other
 * channel, when the topic is muted.
 */
export const isTopicMessageMuted = (channelMuted: boolean, policy: VisibilityPolicyValue): boolean =>
  channelMuted ? policy !== VisibilityPolicy.UNMUTED && policy !== VisibilityPolicy.FOLLOWED : policy === VisibilityPolicy.MUTED;

/**
 * Upstream's get_topic_mutes, the legacy `muted_topics` list of register and of its event:
 * [channel name, topic, time muted] for each muted topic of a channel that is not archived.
 */
export const listMutedTopicsOfUser = (topics: UserTopic[], channels: Channel[]): [string, string, number][] => {
  const active = new Map(channels.filter((c) => !c.isArchived).map((c) => [c.id, c.name]));
  return topics
    .filter((t) => t.visibilityPolicy === VisibilityPolicy.MUTED && active.has(t.channelId))
    .map((t) => [active.get(t.channelId)!, t.topic, t.lastUpdated]);
};

/** Upstream's values of automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy. */
const AutomaticPolicy = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

/** What upstream's visibility_policy_for_send_message looks at besides the sender's two settings. */
export type SendPolicyFacts = {
  followPolicy: number;
  unmutePolicy: number;
  /** The sender muted the channel. */
  channelMuted: boolean;
  /** The sender's policy for the topic before the send (0: none). */
  current: VisibilityPolicyValue;
  /** No earlier message of the topic that the sender can access: the sender starts it. */
  startsTopic: boolean;
};

/**
 * Upstream's visibility_policy_for_send_message with should_change_visibility_policy: the policy
 * a send gives the sender for its topic, or undefined for none. Sending (or, for "on
 * participation", any participation) follows the topic, or in a muted channel unmutes it, per the
 * sender's settings; starting the topic does so under "on initiation" when no policy is set. The
 * policy only ever rises: a followed topic is never changed, and the current policy is never set
 * again.
 */
export const automaticPolicyForSend = (f: SendPolicyFacts): StoredVisibilityPolicy | undefined => {
  if (f.current === VisibilityPolicy.FOLLOWED) return undefined;
  const sendOrParticipate = (policy: number) => policy === AutomaticPolicy.ON_SEND || policy === AutomaticPolicy.ON_PARTICIPATION;
  let next: StoredVisibilityPolicy | undefined;
  if (sendOrParticipate(f.followPolicy)) next = VisibilityPolicy.FOLLOWED;
  else if (f.channelMuted && sendOrParticipate(f.unmutePolicy)) next = VisibilityPolicy.UNMUTED;
  else if (f.current === VisibilityPolicy.INHERIT && f.startsTopic) {
    if (f.followPolicy === AutomaticPolicy.ON_INITIATION) next = VisibilityPolicy.FOLLOWED;
    else if (f.channelMuted && f.unmutePolicy === AutomaticPolicy.ON_INITIATION) next = VisibilityPolicy.UNMUTED;
  }
  return next === f.current ? undefined : next;
};
