// Archiving and unarchiving a channel tell each queue in the form it understands, as upstream's
// ClientDescriptor.accepts_event does: a queue with the archived_channels capability keeps
// archived channels and gets the `is_archived` update; one without it gets the channel removed
// (`delete` for_archiving) or added back (`create` for_unarchiving). The markers are dropped.
import type { ApiEvent, QueueDescriptor, StreamDeleteEvent, StreamEvent, StreamUpdateEvent } from '../../models/event';

type AnyStreamEvent = StreamEvent | StreamUpdateEvent | StreamDeleteEvent;

export const streamEventForQueue = (queue: QueueDescriptor, event: AnyStreamEvent): ApiEvent | null => {
  const archivedChannels = queue.capabilities.archived_channels === true;
  if (event.op === 'update') return event.property === 'is_archived' && !archivedChannels ? null : event;
  if (event.op === 'delete') {
    if (event.for_archiving === undefined) return event;
    const { for_archiving: forArchiving, ...rest } = event;
    return forArchiving && archivedChannels ? null : rest;
  }
  if (event.for_unarchiving === undefined) return event;
  const { for_unarchiving: forUnarchiving, ...rest } = event;
  return forUnarchiving && archivedChannels ? null : rest;
};
