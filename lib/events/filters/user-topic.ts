// Topic policy events as upstream's event queue gives them to each client: the legacy
// `muted_topics` event only to queues that did not ask for `user_topic` by name (a queue for every
// event type gets both, as upstream), and the empty topic of a `user_topic` event as
// "general chat" for queues without the empty_topic_name capability.
import type { MutedTopicsEvent, QueueDescriptor, UserTopicEvent } from '../../models/event';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../../models/message-send';

export const mutedTopicsEventForQueue = (queue: QueueDescriptor, event: MutedTopicsEvent): MutedTopicsEvent | null =>
  queue.eventTypes !== null && queue.eventTypes.includes('user_topic') ? null : event;

export const userTopicEventForQueue = (queue: QueueDescriptor, event: UserTopicEvent): UserTopicEvent =>
  event.topic_name === '' && !queue.capabilities.empty_topic_name ? { ...event, topic_name: EMPTY_TOPIC_FALLBACK_NAME } : event;
