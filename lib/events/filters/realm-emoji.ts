// realm_emoji events for queues with and without the individual_emoji_changes capability: the
// stored event is the legacy `update` (every emoji of the organization) with the change itself in
// `change`; a capable queue gets that change (`add` or `update_one`), any other the `update`
// without it, so each queue sees the change once, in the form it declared it reads.
import type { QueueDescriptor, RealmEmojiEvent } from '../../models/event';

export const realmEmojiEventForQueue = (queue: QueueDescriptor, event: RealmEmojiEvent): RealmEmojiEvent | null => {
  if (event.op !== 'update') return event;
  const { change, ...legacy } = event;
  if (queue.capabilities.individual_emoji_changes === true && change !== undefined) return { type: 'realm_emoji', ...change };
  return legacy;
};
