// Deletion events as upstream's event queue rewrites them for each client: queues without the
// bulk_message_deletion capability get one event per message, with `message_id` instead of
// `message_ids`, and the empty topic reads "general chat" for queues without empty_topic_name.
// One queue entry holds one event, so a deletion of several messages must be sent as one event per
// message to reach such queues whole: a deletion of several messages (deleting a topic) is sent
// once marked `bulk: true` (for bulk_message_deletion queues only) and once per message marked
// `bulk: false` (for the other queues only); the marker is removed here.
import type { DeleteMessageEvent, QueueDescriptor } from '../../models/event';

export const deleteMessageEventForQueue = (queue: QueueDescriptor, stored: DeleteMessageEvent): DeleteMessageEvent | null => {
  const { bulk, ...event } = stored;
  const topic = event.topic === '' && !queue.capabilities.empty_topic_name ? { topic: 'general chat' } : {};
  if (bulk !== undefined && bulk !== (queue.capabilities.bulk_message_deletion === true)) return null;
  if (queue.capabilities.bulk_message_deletion) return { ...event, ...topic };
  const { message_ids: ids, ...rest } = event;
  if (ids.length !== 1) throw new Error('a delete_message event for a queue without bulk_message_deletion must name one message');
  return { ...rest, ...topic, message_id: ids[0] } as DeleteMessageEvent;
};
