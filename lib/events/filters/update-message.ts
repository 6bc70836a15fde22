// Message edits show the empty topic as "general chat" to queues without the empty_topic_name
// capability, as upstream's event queue rewrites orig_subject and subject.
import type { QueueDescriptor, UpdateMessageEvent } from '../../models/event';

const EMPTY_TOPIC_DISPLAY = 'general chat';

export const updateMessageEventForQueue = (queue: QueueDescriptor, event: UpdateMessageEvent): UpdateMessageEvent | null => {
  if (queue.capabilities.empty_topic_name) return event;
  const shaped = { ...event };
  if (shaped.orig_subject === '') shaped.orig_subject = EMPTY_TOPIC_DISPLAY;
  if (shaped.subject === '') shaped.subject = EMPTY_TOPIC_DISPLAY;
  return shaped;
};
