// Message events follow the queue's narrow, as upstream's narrow filter for event queues does:
// every [operator, operand] term must match. Only the operators register accepts are handled.
import type { MessageEvent, QueueDescriptor } from '../../models/event';

type MessagePayload = { type?: string; display_recipient?: unknown; subject?: string; topic?: string; sender_email?: string; flags?: string[] };

const matches = (message: MessagePayload, flags: string[], [operator, operand]: [string, string]): boolean => {
  switch (operator) {
    case 'stream':
    case 'channel':
      return message.type === 'stream' && String(message.display_recipient).toLowerCase() === operand.toLowerCase();
    case 'topic':
      return message.type === 'stream' && (message.subject ?? message.topic ?? '').toLowerCase() === operand.toLowerCase();
    case 'sender':
      return (message.sender_email ?? '').toLowerCase() === operand.toLowerCase();
    case 'is':
      if (operand === 'dm' || operand === 'private') return message.type === 'private';
      return flags.includes(operand === 'alerted' ? 'has_alert_word' : operand);
    default:
      return false;
  }
};

export const messageEventForQueue = (queue: QueueDescriptor, event: MessageEvent): MessageEvent | null => {
  const message = (event.message ?? {}) as MessagePayload;
  const flags = (event.flags as string[] | undefined) ?? message.flags ?? [];
  return queue.narrow.every((term) => matches(message, flags, term)) ? event : null;
};
