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
};

/** A receiver's row for a message: its flags. */
export type UserMessage = {
  userId: number;
  messageId: number;
  realmId: number;
  flags: string[];
};
