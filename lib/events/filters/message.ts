// Message events per queue: the queue's narrow decides (upstream's narrow filter for event queues:
// every [operator, operand] term must match), a version marked `all_public_streams_copy` (a public
// channel's message as non-recipients see it) reaches only `all_public_streams` queues, and the
// message is adapted to the queue: apply_markdown, client_gravatar, the empty topic's name, and
// `local_message_id` for the sending client's own queue. Internal fields never leave.
import { matchesEventNarrow, type NarrowedMessage } from '../../models/event-narrow';
import type { MessageEvent, QueueDescriptor } from '../../models/event';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../../models/message-send';
import { isGravatarUrl } from '../../models/avatar';

type MessagePayload = NarrowedMessage & Record<string, unknown> & { flags?: string[] };

export const messageEventForQueue = (queue: QueueDescriptor, event: MessageEvent): MessageEvent | null => {
  const { raw_content, sender_queue_id, local_id, all_public_streams_copy, ...delivered } = event;
  if (all_public_streams_copy && !queue.allPublicStreams) return null;
  const message: MessagePayload = { ...((delivered.message ?? {}) as MessagePayload) };
  if (raw_content !== undefined && !queue.applyMarkdown) {
    message.content = raw_content;
    message.content_type = 'text/x-markdown';
  }
  if (raw_content !== undefined && queue.clientGravatar && isGravatarUrl(message.avatar_url as string | null)) message.avatar_url = null;
  if (message.type === 'stream' && message.subject === '' && !queue.capabilities.empty_topic_name)
    message.subject = EMPTY_TOPIC_FALLBACK_NAME;
  const flags = (delivered.flags as string[] | undefined) ?? message.flags ?? [];
  if (!matchesEventNarrow(queue.narrow, message, flags)) return null;
  const out: MessageEvent = { ...delivered, message };
  if (local_id !== undefined && sender_queue_id !== undefined && sender_queue_id === queue.queueId) out.local_message_id = local_id;
  return out;
};
