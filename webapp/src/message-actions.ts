// What the message and topic menus ask of the server: reactions, edits, deletions, read receipts,
// a message's Markdown (to quote it), and a topic's read state, visibility, resolution and moves.
// The server's events then change the state (dispatch.ts), for this page and everyone else's.
import { request } from './api/client';
import type { Message } from './api/types';

/** Adds my reaction, or removes it when I have reacted with that emoji already. */
export const toggleReaction = async (message: Message, emoji: { name: string; code: string; type: string }, me: number): Promise<void> => {
  const mine = message.reactions.some((r) => r.user_id === me && r.emoji_code === emoji.code && r.reaction_type === emoji.type);
  await request(mine ? 'DELETE' : 'POST', `messages/${message.id}/reactions`, {
    emoji_name: emoji.name,
    emoji_code: emoji.code,
    reaction_type: emoji.type,
  });
};

export const editMessage = async (id: number, content: string): Promise<void> => {
  await request('PATCH', `messages/${id}`, { content });
};

export const deleteMessage = async (id: number): Promise<void> => {
  await request('DELETE', `messages/${id}`);
};

/** A message's Markdown source (GET /messages/{id} without rendering). */
export const rawContent = async (id: number): Promise<string> =>
  (await request<{ message: { content: string } }>('GET', `messages/${id}`, { apply_markdown: 'false' })).message.content;

export const readReceipts = async (id: number): Promise<number[]> =>
  (await request<{ user_ids: number[] }>('GET', `messages/${id}/read_receipts`)).user_ids;

export const markTopicRead = async (streamId: number, topic: string): Promise<void> => {
  await request('POST', 'mark_topic_as_read', { stream_id: String(streamId), topic_name: topic });
};

/** Upstream's visibility policies: 0 inherit, 1 muted, 2 unmuted, 3 followed. */
export const setTopicPolicy = async (streamId: number, topic: string, policy: 0 | 1 | 2 | 3): Promise<void> => {
  await request('POST', 'user_topics', { stream_id: String(streamId), topic, visibility_policy: String(policy) });
};

export type TopicMove = { topic?: string; streamId?: number; notifyOld: boolean; notifyNew: boolean };

/** Renames or moves a whole topic (every message of it, from the one given). */
export const moveTopic = async (messageId: number, move: TopicMove): Promise<void> => {
  await request('PATCH', `messages/${messageId}`, {
    propagate_mode: 'change_all',
    topic: move.topic,
    stream_id: move.streamId === undefined ? undefined : String(move.streamId),
    send_notification_to_old_thread: move.notifyOld,
    send_notification_to_new_thread: move.notifyNew,
  });
};
