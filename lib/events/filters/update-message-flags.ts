// message_details of a flags event show the empty topic as "general chat" to queues registered
// without the empty_topic_name capability, as upstream rewrites them per queue.
import type { QueueDescriptor, UpdateMessageFlagsEvent } from '../../models/event';

export const updateMessageFlagsEventForQueue = (queue: QueueDescriptor, event: UpdateMessageFlagsEvent): UpdateMessageFlagsEvent => {
  if (event.op !== 'remove' || !event.message_details || queue.capabilities.empty_topic_name) return event;
  const details = Object.fromEntries(
    Object.entries(event.message_details).map(([id, d]) => [
      id,
      d.type === 'stream' && d.topic === '' ? { ...d, topic: 'general chat' } : d,
    ]),
  );
  return { ...event, message_details: details };
};
