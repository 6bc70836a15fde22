// The messages the app has fetched or received, by id, and how edits, moves, deletions, reactions
// and flag changes change them.
import type { Message, ServerEvent } from '../api/types';

export type Messages = ReadonlyMap<number, Message>;

export const addMessages = (messages: Messages, added: readonly Message[]): Messages => {
  if (added.length === 0) return messages;
  const next = new Map(messages);
  for (const message of added) next.set(message.id, message);
  return next;
};

export const removeMessages = (messages: Messages, ids: readonly number[]): Messages => {
  if (!ids.some((id) => messages.has(id))) return messages;
  const next = new Map(messages);
  for (const id of ids) next.delete(id);
  return next;
};

type UpdateMessageEvent = Extract<ServerEvent, { type: 'update_message' }>;

/** A move's destination, when the event moves messages (to another channel or topic). */
export const moveDestination = (event: UpdateMessageEvent, messages: Messages): { streamId: number; topic: string } | undefined => {
  const moved = event.new_stream_id !== undefined || (event.subject !== undefined && event.orig_subject !== undefined);
  if (!moved) return undefined;
  const first = messages.get(event.message_id);
  const streamId = event.new_stream_id ?? event.stream_id ?? first?.stream_id;
  const topic = event.subject ?? first?.subject;
  return streamId === undefined || topic === undefined ? undefined : { streamId, topic };
};

/** An edit of the first message's content, and a move of all the named messages. */
export const applyUpdateMessage = (messages: Messages, event: UpdateMessageEvent): Messages => {
  const destination = moveDestination(event, messages);
  const next = new Map(messages);
  const edited = next.get(event.message_id);
  if (edited && event.rendered_content !== undefined) {
    next.set(event.message_id, {
      ...edited,
      content: event.rendered_content,
      ...(event.rendering_only ? {} : { last_edit_timestamp: event.edit_timestamp }),
    });
  }
  if (destination) {
    for (const id of event.message_ids) {
      const message = next.get(id);
      if (message)
        next.set(id, {
          ...message,
          stream_id: destination.streamId,
          subject: destination.topic,
          last_moved_timestamp: event.edit_timestamp,
        });
    }
  }
  return next;
};

type ReactionEvent = Extract<ServerEvent, { type: 'reaction' }>;

export const applyReaction = (messages: Messages, event: ReactionEvent): Messages => {
  const message = messages.get(event.message_id);
  if (!message) return messages;
  const same = (r: Message['reactions'][number]) =>
    r.user_id === event.user_id && r.emoji_code === event.emoji_code && r.reaction_type === event.reaction_type;
  const others = message.reactions.filter((r) => !same(r));
  const { emoji_name, emoji_code, reaction_type, user_id } = event;
  const reactions = event.op === 'add' ? [...others, { emoji_name, emoji_code, reaction_type, user_id }] : others;
  return new Map(messages).set(message.id, { ...message, reactions });
};

/** A flag added or removed on some messages (or on all of them, `all`). */
export const applyFlag = (messages: Messages, ids: readonly number[] | 'all', flag: string, op: 'add' | 'remove'): Messages => {
  const next = new Map(messages);
  for (const id of ids === 'all' ? messages.keys() : ids) {
    const message = next.get(id);
    if (!message || message.flags.includes(flag) === (op === 'add')) continue;
    next.set(id, { ...message, flags: op === 'add' ? [...message.flags, flag] : message.flags.filter((f) => f !== flag) });
  }
  return next;
};
