// Register's topic policies: "user_topic" gives `user_topics`, the deprecated "muted_topics" gives
// `muted_topics` only to clients that did not name "user_topic" (a client asking for everything
// gets both, as upstream). Topics of archived channels are left out of both, as upstream's
// get_user_topics. One consistent query of the caller's partition, so a change made before this
// read is in the state and never also delivered by the queue.
import { EMPTY_TOPIC_FALLBACK_NAME } from '../models/message-send';
import { apiUserTopic, listMutedTopicsOfUser, type UserTopic } from '../models/user-topic';
import * as userTopicsStore from '../store/user-topics';
import { once, realmChannels } from './context';
import type { StateBuilder, StateContext } from './registry';

/** The caller's topic policies ([] for a spectator), read once per register. */
export const ownUserTopics = (ctx: StateContext): Promise<UserTopic[]> => {
  const user = ctx.user;
  return user ? once(ctx, 'userTopics', () => userTopicsStore.listUserTopicsOfUser(user.id, { consistent: true })) : Promise.resolve([]);
};

export const userTopicsState: StateBuilder = async (ctx) => {
  const wantUserTopics = ctx.want('user_topic');
  const wantMutedTopics = ctx.want('muted_topics') && (ctx.wantsAll === true || !wantUserTopics);
  if (!wantUserTopics && !wantMutedTopics) return {};
  const [topics, channels] = await Promise.all([ownUserTopics(ctx), realmChannels(ctx)]);
  const active = new Set(channels.filter((c) => !c.isArchived).map((c) => c.id));
  const renameEmpty = !ctx.capabilities.empty_topic_name;
  return {
    ...(wantMutedTopics ? { muted_topics: listMutedTopicsOfUser(topics, channels) } : {}),
    ...(wantUserTopics
      ? {
          user_topics: topics
            .filter((t) => active.has(t.channelId))
            .map(apiUserTopic)
            .map((t) => (t.topic_name === '' && renameEmpty ? { ...t, topic_name: EMPTY_TOPIC_FALLBACK_NAME } : t)),
        }
      : {}),
  };
};
