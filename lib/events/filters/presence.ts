// Presence events are sent once per organization carrying every shape (lib/actions/presence.ts);
// each queue gets the one it asked for, as upstream's process_presence_event does: the modern
// `presences` field for simplified_presence_events clients, the legacy fields without `email` for
// slim_presence queues, and the legacy fields with `email` for everyone else.
import { registerEventFilter } from '../event-filters';

registerEventFilter('presence', (queue, event) => {
  const { presences, email, user_id, server_timestamp, presence } = event;
  if (queue.capabilities.simplified_presence_events) return { type: 'presence', presences };
  if (queue.slimPresence) return { type: 'presence', user_id, server_timestamp, presence };
  return { type: 'presence', user_id, email, server_timestamp, presence };
});
