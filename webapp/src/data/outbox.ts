// Messages I sent that the server has not confirmed yet (local echo): shown at once, replaced by
// the message event that carries their local_message_id, or marked failed.
import type { Message, UserRef } from '../api/types';

export type Destination = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; userIds: number[] };

export type OutboxMessage = { localId: string; destination: Destination; content: string; timestamp: number; failed?: string };

export const confirmLocal = (outbox: readonly OutboxMessage[], localId: string | undefined): readonly OutboxMessage[] =>
  localId !== undefined && outbox.some((m) => m.localId === localId) ? outbox.filter((m) => m.localId !== localId) : outbox;

export const failLocal = (outbox: readonly OutboxMessage[], localId: string, error: string): OutboxMessage[] =>
  outbox.map((m) => (m.localId === localId ? { ...m, failed: error } : m));

/** A local echo as the feed draws it: a message of mine with a negative id and the raw text. */
export const echoAsMessage = (
  local: OutboxMessage,
  index: number,
  me: { userId: number; email: string; fullName: string },
  recipients: (userIds: number[]) => UserRef[],
): Message => ({
  id: -(index + 1),
  sender_id: me.userId,
  sender_full_name: me.fullName,
  sender_email: me.email,
  avatar_url: null,
  content: local.content,
  timestamp: local.timestamp,
  type: local.destination.kind === 'stream' ? 'stream' : 'private',
  stream_id: local.destination.kind === 'stream' ? local.destination.streamId : undefined,
  subject: local.destination.kind === 'stream' ? local.destination.topic : '',
  display_recipient: local.destination.kind === 'stream' ? '' : recipients([...local.destination.userIds, me.userId]),
  flags: ['read'],
  reactions: [],
});
