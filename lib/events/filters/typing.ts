// Channel typing events reach only queues registered with the stream_typing_notifications
// capability, and show the empty topic as "general chat" to queues without empty_topic_name, as
// upstream's ClientDescriptor.accepts_event and event-queue rewriting do. Direct typing events
// pass unchanged.
import type { QueueDescriptor, TypingEvent } from '../../models/event';

export const typingEventForQueue = (queue: QueueDescriptor, event: TypingEvent): TypingEvent | null => {
  if (event.message_type !== 'stream') return event;
  if (!queue.capabilities.stream_typing_notifications) return null;
  if (event.topic === '' && !queue.capabilities.empty_topic_name) return { ...event, topic: 'general chat' };
  return event;
};
