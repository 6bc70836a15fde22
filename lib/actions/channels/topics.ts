// The topics of a channel (GET /users/me/{stream_id}/topics), as upstream's get_topics_backend and
// get_topic_history_for_stream: read from the per-topic summaries every send keeps, so the cost
// follows the number of topics, never the number of messages.
import { accessChannelById } from '../../access/channels';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as topicsStore from '../../store/topics';

export type ApiTopic = { name: string; max_id: number };

/**
 * The topics of a channel the user may read, newest first, each with its newest message id and
 * its name as last sent. Checks content access to the channel ("Invalid channel ID": missing,
 * another organization's, private without a subscription, or public to a guest; archived channels
 * are served, as upstream since feature level 480). With shared history, every topic of the
 * channel (one query of its summaries); with protected history, only the topics of messages the
 * user received, with the newest of those (one query of the user's own summaries of the
 * channel). The empty topic is named realm_empty_topic_display_name unless the client allows it.
 * Reads only.
 */
export const getChannelTopics = async (user: User, realm: Realm, channelId: number, allowEmptyTopicName: boolean): Promise<ApiTopic[]> => {
  const channel = await accessChannelById(user, channelId, 'Invalid channel ID', { allowArchived: true });
  const topics = channel.historyPublicToSubscribers
    ? await topicsStore.listTopicsOfChannel(channel.id)
    : await topicsStore.listReceivedTopicsOfChannel(user.id, channel.id);
  return topics.map((t) => ({
    name: t.topic === '' && !allowEmptyTopicName ? realm.emptyTopicDisplayName : t.topic,
    max_id: t.maxMessageId,
  }));
};
