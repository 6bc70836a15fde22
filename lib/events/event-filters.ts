// Which events a queue receives, and in what shape. A queue receives an event when its type is in
// the queue's event_types (or it has none), and every filter registered for that type lets it
// through; a filter may also reshape the event for the queue's capabilities (presence formats,
// user-group remove vs update). Filters are pure: the engine may apply them more than once.
import type { ApiEvent, QueueDescriptor } from './types';

export type EventFilter = (queue: QueueDescriptor, event: ApiEvent) => ApiEvent | null;

const FILTERS = new Map<string, EventFilter[]>();

/** Adds a filter for one event type. Call it from a module under lib/events/filters/. */
export const registerEventFilter = (type: string, filter: EventFilter): void => {
  FILTERS.set(type, [...(FILTERS.get(type) ?? []), filter]);
};

/** The event as this queue should see it, or null if the queue does not receive it. */
export const eventForQueue = (queue: QueueDescriptor, event: ApiEvent): ApiEvent | null => {
  if (event.type !== 'heartbeat' && queue.eventTypes !== null && !queue.eventTypes.includes(event.type)) return null;
  let shaped: ApiEvent | null = event;
  for (const filter of FILTERS.get(event.type) ?? []) {
    if (shaped === null) break;
    shaped = filter(queue, shaped);
  }
  return shaped;
};
