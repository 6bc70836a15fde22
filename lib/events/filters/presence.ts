// Presence events are sent once per organization carrying every shape (lib/actions/people/presence.ts);
// each queue gets the one it asked for, as upstream's process_presence_event does: the modern
// `presences` field for simplified_presence_events clients, the legacy fields without `email` for
// slim_presence queues, and the legacy fields with `email` for everyone else.
import type { PresenceEvent, QueueDescriptor } from '../../models/event';

export const presenceEventForQueue = (queue: QueueDescriptor, event: PresenceEvent): PresenceEvent => {
  const { presences, email, user_id, server_timestamp, presence } = event;
  if (queue.capabilities.simplified_presence_events) return { type: 'presence', presences };
  if (queue.slimPresence) return { type: 'presence', user_id, server_timestamp, presence };
  return { type: 'presence', user_id, email, server_timestamp, presence };
};
