// Which events a queue receives, and in what shape. A queue receives an event when its type is in
// the queue's event_types (or it has none), and the filter of its type (if any, in EVENT_FILTERS)
// lets it through; a filter may also reshape the event for the queue's capabilities (presence
// formats, user-group remove vs update). Filters are pure: the engine may apply them more than once.
// An event shared by many users (lib/events/fanout.ts) is first turned into the queue owner's
// version, or dropped when it is not for them, so the filters and the client never see `fanout`.
import type { ApiEvent, EventType, QueueDescriptor } from '../models/event';
import { eventForUser } from './fanout';
import { deleteMessageEventForQueue } from './filters/delete-message';
import { messageEventForQueue } from './filters/message';
import { presenceEventForQueue } from './filters/presence';
import { realmEmojiEventForQueue } from './filters/realm-emoji';
import { realmLinkifiersEventForQueue } from './filters/realm-linkifiers';
import { streamEventForQueue } from './filters/stream';
import { typingEventForQueue } from './filters/typing';
import { updateMessageEventForQueue } from './filters/update-message';
import { updateMessageFlagsEventForQueue } from './filters/update-message-flags';
import { userGroupEventForQueue } from './filters/user-group';
import { mutedTopicsEventForQueue, userTopicEventForQueue } from './filters/user-topic';

/** The filter of one event type: the event as this queue sees it, or null if it does not get it. */
export type EventFilter<T extends EventType> = (queue: QueueDescriptor, event: Extract<ApiEvent, { type: T }>) => ApiEvent | null;

/** Every event filter, by event type: add a line here when an event type needs one. */
const EVENT_FILTERS: { readonly [T in EventType]?: EventFilter<T> } = {
  delete_message: deleteMessageEventForQueue,
  message: messageEventForQueue,
  muted_topics: mutedTopicsEventForQueue,
  presence: presenceEventForQueue,
  realm_emoji: realmEmojiEventForQueue,
  realm_linkifiers: realmLinkifiersEventForQueue,
  stream: streamEventForQueue,
  typing: typingEventForQueue,
  update_message: updateMessageEventForQueue,
  update_message_flags: updateMessageFlagsEventForQueue,
  user_group: userGroupEventForQueue,
  user_topic: userTopicEventForQueue,
};

/** The event as this queue should see it, or null if the queue does not receive it. */
export const eventForQueue = (queue: QueueDescriptor, stored: ApiEvent): ApiEvent | null => {
  // The type first: it is cheap, and a shared event's versions all have the same type.
  if (stored.type !== 'heartbeat' && queue.eventTypes !== null && !queue.eventTypes.includes(stored.type)) return null;
  const event = eventForUser(stored, queue.userId);
  if (event === null) return null;
  const filter = EVENT_FILTERS[event.type] as EventFilter<typeof event.type> | undefined;
  return filter ? filter(queue, event as never) : event;
};
