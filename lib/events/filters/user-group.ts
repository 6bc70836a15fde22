// user_group events for queues with and without the include_deactivated_groups capability
// (upstream's ClientDescriptor.accepts_event and its popping of internal fields):
// - a deactivation sends `update {deactivated: true}` (capable queues) and `remove` (the others),
//   a reactivation `update {deactivated: false}` (capable) and `add` with for_reactivation (the
//   others), so each queue sees exactly one of each pair;
// - a rename carries the group's `deactivated` state so that queues without the capability do
//   not hear about deactivated groups; the field is removed before delivery, as is for_reactivation.
import type { QueueDescriptor, UserGroupEvent } from '../../models/event';

export const userGroupEventForQueue = (queue: QueueDescriptor, event: UserGroupEvent): UserGroupEvent | null => {
  const capable = queue.capabilities.include_deactivated_groups === true;
  switch (event.op) {
    case 'remove':
      return capable ? null : event;
    case 'add': {
      const { for_reactivation: forReactivation, ...rest } = event;
      return forReactivation === true && capable ? null : rest;
    }
    case 'update': {
      const data = (event.data ?? {}) as Record<string, unknown>;
      if ('deactivated' in data) return capable ? event : null;
      if (!('deactivated' in event)) return event;
      const { deactivated, ...rest } = event;
      return deactivated === true && !capable ? null : rest;
    }
    default:
      return event;
  }
};
