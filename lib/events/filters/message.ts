// Message events follow the queue's narrow, as upstream's narrow filter for event queues does:
// every [operator, operand] term must match. Only the operators register accepts are handled.
import { matchesEventNarrow, type NarrowedMessage } from '../../models/narrow';
import type { MessageEvent, QueueDescriptor } from '../../models/event';

type MessagePayload = NarrowedMessage & { flags?: string[] };

export const messageEventForQueue = (queue: QueueDescriptor, event: MessageEvent): MessageEvent | null => {
  const message = (event.message ?? {}) as MessagePayload;
  const flags = (event.flags as string[] | undefined) ?? message.flags ?? [];
  return matchesEventNarrow(queue.narrow, message, flags) ? event : null;
};
