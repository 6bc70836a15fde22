// Topic muting and following (upstream's zerver/views/user_topics.py and
// zerver/actions/user_topics.py): POST /user_topics sets a visibility policy, the legacy
// PATCH /users/me/subscriptions/muted_topics mutes and unmutes; both go through
// doSetUserTopicVisibilityPolicy, which writes and then tells the user's own clients.
import {
  accessChannelById,
  accessChannelByName,
  accessChannelToRemoveVisibilityPolicyById,
  accessChannelToRemoveVisibilityPolicyByName,
} from '../../access/channels';
import { nowSeconds } from '../../clock';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Channel, Subscription } from '../../models/channel';
import type { MutedTopicsEvent } from '../../models/event';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../../models/message-send';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import {
  VisibilityPolicy,
  automaticPolicyForSend,
  listMutedTopicsOfUser,
  type SendPolicyFacts,
  type StoredVisibilityPolicy,
  type VisibilityPolicyValue,
} from '../../models/user-topic';
import * as channelsStore from '../../store/channels';
import * as topicsStore from '../../store/topics';
import * as userTopicsStore from '../../store/user-topics';
import * as usersStore from '../../store/users';
import { LostRaceError, retryLostRaces } from '../retry';

/**
 * The topic a request names: upstream's maybe_rename_general_chat_to_empty_topic, so that a
 * client showing the empty topic under its display name can set a policy for it.
 */
const topicOfRequest = (topic: string): string => (topic === EMPTY_TOPIC_FALLBACK_NAME ? '' : topic);

/**
 * Sets the user's visibility policy for a topic of an already accessed channel (INHERIT removes
 * it). Reads the current policy consistently and writes conditionally on it (a lost race reads
 * again); a policy that is already the requested one, or the removal of a missing one, writes
 * nothing and sends nothing, as upstream. After a change, sends the user's clients the legacy
 * `muted_topics` event (the whole list, for clients that did not ask for `user_topic`), then the
 * `user_topic` event (only the latter with `skipMutedTopicsEvent`, for a change another one follows
 * at once). Returns whether anything changed.
 */
const doSetUserTopicVisibilityPolicy = async (
  user: Pick<User, 'id' | 'realmId'>,
  channel: Pick<Channel, 'id'>,
  topic: string,
  policy: VisibilityPolicyValue,
  opts: { lastUpdated?: number; skipMutedTopicsEvent?: boolean } = {},
): Promise<boolean> => {
  const lastUpdated = opts.lastUpdated ?? nowSeconds();
  const changed = await retryLostRaces(async () => {
    const current = await userTopicsStore.getUserTopic(user.id, channel.id, topic, { consistent: true });
    if (policy === VisibilityPolicy.INHERIT) {
      if (!current) return false;
      if (!(await userTopicsStore.deleteUserTopic(current))) throw new LostRaceError();
      return true;
    }
    if (current?.visibilityPolicy === policy) return false;
    const written = current
      ? await userTopicsStore.changeUserTopicPolicy(current, policy, lastUpdated)
      : await userTopicsStore.createUserTopic({ userId: user.id, channelId: channel.id, topic, visibilityPolicy: policy, lastUpdated });
    if (!written) throw new LostRaceError();
    return true;
  });
  if (!changed) return false;
  // What lets a send find followers of a channel's topics without reading the topic (missed-message emails).
  if (policy === VisibilityPolicy.FOLLOWED) await channelsStore.markFollowsTopics(user.id, channel.id);
  if (!opts.skipMutedTopicsEvent) {
    const [topics, channels] = await Promise.all([
      userTopicsStore.listUserTopicsOfUser(user.id, { consistent: true }),
      channelsStore.listChannelsOfRealm(user.realmId),
    ]);
    const legacy: MutedTopicsEvent = { type: 'muted_topics', muted_topics: listMutedTopicsOfUser(topics, channels) };
    await sendEvent(user.realmId, legacy, { users: [user.id] });
  }
  await sendEvent(
    user.realmId,
    { type: 'user_topic', stream_id: channel.id, topic_name: topic, last_updated: lastUpdated, visibility_policy: policy },
    { users: [user.id] },
  );
  return true;
};

/**
 * POST /user_topics (upstream's update_user_topic): removing a policy needs only a channel of
 * the organization ("Invalid channel ID"), setting one needs content access to an active channel
 * ("Invalid channel ID"). Then doSetUserTopicVisibilityPolicy.
 */
export const checkUpdateUserTopic = async (user: User, channelId: number, topic: string, policy: VisibilityPolicyValue): Promise<void> => {
  const channel =
    policy === VisibilityPolicy.INHERIT
      ? await accessChannelToRemoveVisibilityPolicyById(user, channelId, 'Invalid channel ID')
      : await accessChannelById(user, channelId, 'Invalid channel ID');
  await doSetUserTopicVisibilityPolicy(user, channel, topicOfRequest(topic), policy);
};

/** The channel of a legacy request: `stream_id` or `stream`, exactly one (upstream's check_for_exactly_one_stream_arg). */
export type LegacyChannelRef = { streamId: number | undefined; stream: string | undefined };

/**
 * PATCH /users/me/subscriptions/muted_topics (upstream's update_muted_topic, deprecated): exactly
 * one of `stream_id` and `stream` ("Missing 'stream_id' argument", "Unsupported parameter
 * combination: stream_id, stream"); `add` mutes a topic of a channel the user may read ("Invalid
 * channel ID" / "Invalid channel name '…'"), `remove` removes its policy in any channel of the
 * organization ("Topic is not muted" when there is no such channel). Muting a muted topic or
 * unmuting an unmuted one succeeds without a change, as upstream since feature level 170.
 */
export const checkUpdateMutedTopic = async (user: User, ref: LegacyChannelRef, topic: string, op: 'add' | 'remove'): Promise<void> => {
  if (ref.streamId === undefined && ref.stream === undefined) throw new BadRequestError("Missing 'stream_id' argument");
  if (ref.streamId !== undefined && ref.stream !== undefined) {
    throw new BadRequestError('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
  }
  let channel: Channel;
  if (op === 'add') {
    channel =
      ref.stream !== undefined
        ? await accessChannelByName(user, ref.stream)
        : await accessChannelById(user, ref.streamId!, 'Invalid channel ID');
  } else {
    const notMuted = 'Topic is not muted';
    channel =
      ref.stream !== undefined
        ? await accessChannelToRemoveVisibilityPolicyByName(user, ref.stream, notMuted)
        : await accessChannelToRemoveVisibilityPolicyById(user, ref.streamId!, notMuted);
  }
  await doSetUserTopicVisibilityPolicy(
    user,
    channel,
    topicOfRequest(topic),
    op === 'add' ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT,
  );
};

/** What a channel send decides the sender's automatic policy from, read before its message is written. */
export type SendTopicFacts = { sender: User; channel: Channel; topic: string; facts: SendPolicyFacts };

/**
 * Reads, before a channel message is written, what upstream's visibility_policy_for_send_message
 * needs about its sender: their settings, whether they muted the channel, their policy for the
 * topic, and whether they start the topic (no earlier message of it they can access: the
 * channel's topic summary when they read its whole history, else their own received-topic
 * summaries). `viewer`: the sender's subscription row as the send read it, and whether they read
 * the channel's whole history. Undefined for bots, whose policies never change automatically. Reads only.
 */
export const readSendTopicFacts = async (
  sender: User,
  channel: Channel,
  topic: string,
  viewer: { subscription: Subscription | undefined; readsWholeHistory: boolean },
): Promise<SendTopicFacts | undefined> => {
  if (sender.isBot) return undefined;
  const settings = settingsOfUser(sender);
  const { subscription, readsWholeHistory } = viewer;
  const [current, earlier] = await Promise.all([
    userTopicsStore.getUserTopic(sender.id, channel.id, topic, { consistent: true }),
    readsWholeHistory
      ? topicsStore.getTopicSummary(channel.id, topic)
      : topicsStore
          .listReceivedTopicsOfChannel(sender.id, channel.id)
          .then((topics) => topics.find((t) => t.topic.toLowerCase() === topic.toLowerCase())),
  ]);
  return {
    sender,
    channel,
    topic,
    facts: {
      followPolicy: settings.automatically_follow_topics_policy,
      unmutePolicy: settings.automatically_unmute_topics_in_muted_streams_policy,
      channelMuted: subscription?.active === true && subscription.isMuted,
      current: current?.visibilityPolicy ?? VisibilityPolicy.INHERIT,
      startsTopic: earlier === undefined,
    },
  };
};

/**
 * After a channel message is written (upstream's do_send_messages): sets the sender's automatic
 * policy for the topic (automaticPolicyForSend), then makes each loudly mentioned recipient
 * (not the sender, not a bot) who has automatically_follow_topics_where_mentioned and neither
 * muted nor followed the topic follow it, each through doSetUserTopicVisibilityPolicy (with its
 * events to that user). Returns the sender's new policy when it changed, for the send's
 * `automatic_new_visibility_policy`.
 */
export const doApplyAutomaticTopicPolicies = async (
  send: SendTopicFacts | undefined,
  mentionedRecipientIds: number[],
): Promise<StoredVisibilityPolicy | undefined> => {
  if (!send) return undefined;
  const { sender, channel, topic } = send;
  const policy = automaticPolicyForSend(send.facts);
  const changed = policy !== undefined && (await doSetUserTopicVisibilityPolicy(sender, channel, topic, policy));
  const mentioned = [...new Set(mentionedRecipientIds)].filter((id) => id !== sender.id);
  if (mentioned.length > 0) {
    const users = (await usersStore.getMany(sender.realmId, mentioned)).filter(
      (u) => u.isActive && !u.isBot && settingsOfUser(u).automatically_follow_topics_where_mentioned,
    );
    for (const user of users) {
      const current = await userTopicsStore.getUserTopic(user.id, channel.id, topic, { consistent: true });
      if (current?.visibilityPolicy === VisibilityPolicy.MUTED || current?.visibilityPolicy === VisibilityPolicy.FOLLOWED) continue;
      await doSetUserTopicVisibilityPolicy(user, channel, topic, VisibilityPolicy.FOLLOWED);
    }
  }
  return changed ? policy : undefined;
};

/** Upstream's get_visibility_policy_after_merge: of the two topics' policies, the most visible one. */
const mergedPolicy = (orig: VisibilityPolicyValue, target: VisibilityPolicyValue): VisibilityPolicyValue => {
  const both = [orig, target];
  if (both.includes(VisibilityPolicy.FOLLOWED)) return VisibilityPolicy.FOLLOWED;
  if (both.includes(VisibilityPolicy.UNMUTED)) return VisibilityPolicy.UNMUTED;
  if (both.includes(VisibilityPolicy.INHERIT)) return VisibilityPolicy.INHERIT;
  return VisibilityPolicy.MUTED;
};

export type TopicPoliciesMove = {
  from: { channel: Channel; topic: string };
  to: { channel: Channel; topic: string };
  /** Whether the new topic had messages before the move (then each user's two policies merge). */
  targetHadMessages: boolean;
  /** Users the move took the messages away from: their policy for the old topic is removed, not moved. */
  losingAccess: Set<number>;
};

/**
 * Carries every user's muting or following of a topic to where the whole topic moved, as upstream's
 * do_update_message does when all visible messages moved: for each user with a policy for either
 * topic, the old topic's policy is removed (without the legacy `muted_topics` event, which the new
 * policy's change sends), and the new topic gets the old one's policy, or the more visible of the
 * two when the new topic had messages; a user who lost access only loses the old policy. A change
 * of case within a channel keeps the policies where they are (they are keyed case-insensitively).
 * Emits `user_topic` (and `muted_topics`) events to each user whose policies changed.
 */
export const doMoveTopicPolicies = async (realmId: number, move: TopicPoliciesMove): Promise<void> => {
  const { from, to } = move;
  if (from.channel.id === to.channel.id && from.topic.toLowerCase() === to.topic.toLowerCase()) return;
  const [origPolicies, targetPolicies] = await Promise.all([
    userTopicsStore.listPoliciesOfTopic(from.channel.id, from.topic),
    userTopicsStore.listPoliciesOfTopic(to.channel.id, to.topic),
  ]);
  const orig = new Map(origPolicies.map((t) => [t.userId, t.visibilityPolicy as VisibilityPolicyValue]));
  const target = new Map(targetPolicies.map((t) => [t.userId, t.visibilityPolicy as VisibilityPolicyValue]));
  const now = nowSeconds();
  const userIds = [...new Set([...orig.keys(), ...target.keys()])].sort((a, b) => a - b);
  for (const userId of userIds) {
    const user = { id: userId, realmId };
    const o = orig.get(userId) ?? VisibilityPolicy.INHERIT;
    const t = target.get(userId) ?? VisibilityPolicy.INHERIT;
    if (move.losingAccess.has(userId)) {
      if (o !== VisibilityPolicy.INHERIT) await doSetUserTopicVisibilityPolicy(user, from.channel, from.topic, VisibilityPolicy.INHERIT);
      continue;
    }
    if (o !== VisibilityPolicy.INHERIT) {
      await doSetUserTopicVisibilityPolicy(user, from.channel, from.topic, VisibilityPolicy.INHERIT, {
        lastUpdated: now,
        skipMutedTopicsEvent: true,
      });
    }
    const next = move.targetHadMessages ? mergedPolicy(o, t) : o;
    if (next === t) continue;
    await doSetUserTopicVisibilityPolicy(user, to.channel, to.topic, next, { lastUpdated: now });
  }
};
