// Deletion events as upstream's event queue rewrites them for each client: queues without the
// bulk_message_deletion capability get one event per message, with `message_id` instead of
// `message_ids`, and the empty topic reads "general chat" for queues without empty_topic_name.
// One queue entry holds one event, so a deletion of several messages is sent as the whole event
// marked for bulk queues and one event per message marked for the others (`for_queues`,
// sendDeleteMessageEvents); the marker never reaches a client.
import type { DeleteMessageEvent, QueueDescriptor } from '../../models/event';

export const deleteMessageEventForQueue = (queue: QueueDescriptor, stored: DeleteMessageEvent): DeleteMessageEvent | null => {
  const { for_queues: forQueues, ...event } = stored;
  const bulk = queue.capabilities.bulk_message_deletion === true;
  if ((forQueues === 'bulk' && !bulk) || (forQueues === 'single' && bulk)) return null;
  const topic = event.topic === '' && !queue.capabilities.empty_topic_name ? { topic: 'general chat' } : {};
  if (bulk) return { ...event, ...topic };
  const { message_ids: ids, ...rest } = event;
  if (ids.length !== 1) throw new Error('a delete_message event for a queue without bulk_message_deletion must name one message');
  return { ...rest, ...topic, message_id: ids[0] } as DeleteMessageEvent;
};
