import type { StoredReactions } from './reaction';

/** A message as stored in its organization's partition. */
export type Message = {
  id: number;
  realmId: number;
  senderId: number;
  /** null for a direct message. */
  streamId: number | null;
  topic: string;
  /** Sorted ids of a direct message's participants (sender included); [] for channel messages. */
  dmUserIds: number[];
  content: string;
  dateSent: number;
  /** Its emoji reactions (absent until someone reacts): turn them into the API list with apiReactions. */
  reactions?: StoredReactions;
};

/** A receiver's row for a message: its flags. */
export type UserMessage = {
  userId: number;
  messageId: number;
  realmId: number;
  flags: string[];
};

/** What the unread summary needs of one of a user's unread messages. */
export type UnreadMessage = {
  messageId: number;
  senderId: number;
  streamId: number | null;
  topic: string;
  dmUserIds: number[];
  flags: string[];
};

/**
 * One of a user's direct-message conversations: the other participants (ascending; [] when the
 * user wrote to themself) and the newest message id. Message sending keeps one per participant.
 */
export type DmConversation = { userIds: number[]; maxMessageId: number };
