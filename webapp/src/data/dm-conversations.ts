// My direct-message conversations, newest first in the sidebar: register's
// recent_private_conversations, then each direct message sent or received.
import type { Message, RegisterResponse } from '../api/types';
import { dmKey, messageUserIds } from './narrow';

/** The newest message id of each conversation, by dmKey. */
export type DmConversations = ReadonlyMap<string, number>;

export const dmConversationsFromRegister = (register: RegisterResponse): DmConversations =>
  new Map((register.recent_private_conversations ?? []).map((c) => [dmKey(c.user_ids, register.user_id), c.max_message_id]));

export const withDirectMessage = (conversations: DmConversations, message: Message, me: number): DmConversations => {
  if (message.type !== 'private') return conversations;
  const key = dmKey(messageUserIds(message), me);
  return (conversations.get(key) ?? -1) >= message.id ? conversations : new Map(conversations).set(key, message.id);
};

/** Conversations by newest message first. */
export const sortedDmKeys = (conversations: DmConversations): string[] =>
  [...conversations.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
