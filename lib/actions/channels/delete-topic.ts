// Deleting a topic's messages (upstream's delete_in_topic), in bounded batches.
import { accessChannelById, channelMetadataViewers } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { nowMs } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config } from '../../config';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../../models/message-send';
import type { DeleteMessageEvent } from '../../models/event';
import { type User } from '../../models/user';
import * as messagesStore from '../../store/messages';
import * as topicsStore from '../../store/topics';
import { deleteMessageAndRows, sendDeleteMessageEvents } from '../messages/delete';
import { forAdministrators } from '../requiring';
import { sendTo, updateEvent } from './events';

/** Messages deleted per batch: upstream's RETENTION_STREAM_MESSAGE_BATCH_SIZE. */
const DELETE_TOPIC_BATCH_SIZE = 100;
/** Messages of a batch deleted at once. */
const DELETE_CONCURRENCY = 8;

/**
 * The topic's messages the user may delete, newest first, at most one batch: with protected
 * history only those the user received (upstream's bulk_access_stream_messages_query). A message
 * whose fan-out job is still writing rows is left for a later request.
 */
const nextTopicBatch = async (user: User, channel: Channel, topic: string): Promise<Message[]> => {
  let ids = await topicsStore.listNewestMessageIdsOfTopic(channel.id, topic);
  if (!channel.historyPublicToSubscribers) {
    const received = new Set((await messagesStore.getUserMessagesByIds(user.id, ids)).map((row) => row.messageId));
    ids = ids.filter((id) => received.has(id));
  }
  const messages = await messagesStore.getMessagesByIds(channel.realmId, ids.slice(0, DELETE_TOPIC_BATCH_SIZE));
  return messages.filter((m) => !m.pendingDelivery);
};

/**
 * POST /streams/{stream_id}/delete_topic, as upstream's delete_in_topic: for administrators
 * ("Must be an organization administrator"), a channel they may read, not archived ("Invalid
 * channel ID"); "general chat" names the empty topic. Deletes the topic's messages the caller
 * may see, newest first, in batches of 100, each message with its rows (deleteMessageAndRows),
 * until none is left (`complete: true`) or the request's bound is reached (deleteTopicMaxMessages
 * messages or deleteTopicBudgetMs of work: `complete: false`, and the client repeats the request).
 * Emits per batch one `delete_message` event (and one per message for queues without
 * bulk_message_deletion) to who was told of its messages and the caller, and
 * a `stream` update of `first_message_id` when the channel's first message went.
 */
export const checkDeleteTopic = forAdministrators(
  async (user: User, channelId: number, topicName: string): Promise<{ complete: boolean }> => {
    const channel = await accessChannelById(user, channelId, 'Invalid channel ID');
    const topic = topicName === EMPTY_TOPIC_FALLBACK_NAME ? '' : topicName;
    const started = nowMs();
    const maxMessages = config.deleteTopicMaxMessages();
    let firstMessageId = channel.firstMessageId;
    let deletedCount = 0;
    let complete = true;
    for (;;) {
      if (deletedCount >= maxMessages || nowMs() - started >= config.deleteTopicBudgetMs()) {
        complete = false;
        break;
      }
      const batch = (await nextTopicBatch(user, channel, topic)).slice(0, Math.max(0, maxMessages - deletedCount));
      if (batch.length === 0) break;
      // The channel's first message last, alone: its replacement is looked up once the others are gone.
      const others = batch.filter((m) => m.id !== firstMessageId);
      const first = batch.filter((m) => m.id === firstMessageId);
      const results = await mapLimited(others, DELETE_CONCURRENCY, (m) => deleteMessageAndRows(m, { ...channel, firstMessageId }));
      for (const m of first) {
        const result = await deleteMessageAndRows(m, { ...channel, firstMessageId });
        if (result.firstMessageId !== undefined) firstMessageId = result.firstMessageId;
        results.push(result);
      }
      const deletedIds = [...others, ...first].filter((_, i) => results[i].deleted).map((m) => m.id);
      deletedCount += batch.length;
      if (deletedIds.length === 0) continue;
      const receivers = new Set(results.flatMap((r) => r.receivers));
      receivers.add(user.id);
      const audience = { users: [...receivers].sort((a, b) => a - b) };
      const event = (ids: number[]): DeleteMessageEvent => ({
        type: 'delete_message',
        message_ids: ids,
        message_type: 'stream',
        stream_id: channel.id,
        topic: topic.toLowerCase(),
      });
      deletedIds.sort((a, b) => a - b);
      await sendDeleteMessageEvents(user.realmId, event(deletedIds), audience.users);
    }
    if (firstMessageId !== channel.firstMessageId) {
      const groups = await RealmGroups.load(user.realmId);
      const state = { ...channel, firstMessageId };
      await sendTo(user.realmId, updateEvent(state, 'first_message_id', firstMessageId), await channelMetadataViewers(state, groups));
    }
    return { complete };
  },
);
