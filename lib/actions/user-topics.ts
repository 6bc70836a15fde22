// Topic muting and following (upstream's zerver/views/user_topics.py and
// zerver/actions/user_topics.py): POST /user_topics sets a visibility policy, the legacy
// PATCH /users/me/subscriptions/muted_topics mutes and unmutes; both go through
// doSetUserTopicVisibilityPolicy, which writes and then tells the user's own clients.
import {
  accessChannelById,
  accessChannelByName,
  accessChannelToRemoveVisibilityPolicyById,
  accessChannelToRemoveVisibilityPolicyByName,
} from '../access/channels';
import { nowSeconds } from '../clock';
import { BadRequestError } from '../errors';
import { sendEvent } from '../events/send';
import type { Channel } from '../models/channel';
import type { MutedTopicsEvent } from '../models/event';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../models/message-send';
import type { User } from '../models/user';
import { VisibilityPolicy, listMutedTopicsOfUser, type VisibilityPolicyValue } from '../models/user-topic';
import * as channelsStore from '../store/channels';
import * as userTopicsStore from '../store/user-topics';
import { LostRaceError, retryLostRaces } from './retry';

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
 * `user_topic` event. Returns whether anything changed.
 */
export const doSetUserTopicVisibilityPolicy = async (
  user: User,
  channel: Channel,
  topic: string,
  policy: VisibilityPolicyValue,
  opts: { lastUpdated?: number } = {},
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
  const [topics, channels] = await Promise.all([
    userTopicsStore.listUserTopicsOfUser(user.id, { consistent: true }),
    channelsStore.listChannelsOfRealm(user.realmId),
  ]);
  const legacy: MutedTopicsEvent = { type: 'muted_topics', muted_topics: listMutedTopicsOfUser(topics, channels) };
  await sendEvent(user.realmId, legacy, { users: [user.id] });
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
