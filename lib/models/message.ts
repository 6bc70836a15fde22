import type { StoredSubmessage } from './submessage';
import type { EditHistoryEntry } from './message-edit';
import type { StoredReactions } from './reaction';

/** A message as stored in its own partition (docs/data-model.md, "Messages: keys, indexes, …"). */
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
  /** The rendered HTML (absent on items written before sending rendered: render on read). */
  renderedContent?: string;
  /** Linkifier matches in the topic, as upstream's `topic_links`. */
  topicLinks?: { text: string; url: string }[];
  /** The sending client's name (upstream's `client`). */
  sendingClient?: string;
  /** Facts the has:* narrows read. */
  hasLink?: boolean;
  hasImage?: boolean;
  hasAttachment?: boolean;
  isMeMessage?: boolean;
  /**
   * Its edits and moves, newest first (absent until the first): the message objects' `edit_history`,
   * `last_edit_timestamp` and `last_moved_timestamp` are read from it (lib/models/message-edit.ts).
   */
  editHistory?: EditHistoryEntry[];
  /** Its emoji reactions (absent until someone reacts): turn them into the API list with apiReactions. */
  reactions?: StoredReactions;
  /** Its widget (`/poll`, `/todo`): its first submessage, written with it (absent for other messages). */
  widget?: StoredSubmessage;
  /** How many later submessages it has (their items in its partition) and their content's size in bytes (absent until the first). */
  submessageCount?: number;
  submessageBytes?: number;
  /** Set once its sender attached a submessage: from then on everyone who may see it may add some (upstream's verify_submessage_sender). */
  senderSubmessaged?: boolean;
  /**
   * The delivery a send still owes its recipients (their rows, if not written with the message, and
   * their `message` events), written with the message and removed once every recipient has it
   * (lib/actions/messages/delivery.ts); edits and deletes wait while rows are missing.
   */
  pendingDelivery?: PendingDelivery;
};

/**
 * What finishing a send's delivery needs, kept on the message until it is done, so that any
 * process can finish it: the recipients' flags as the most common set (`flags`) and the sets that
 * differ (`exceptions`: the sender, mentioned users), each with its users as runs of ids
 * (lib/events/fanout.ts encodeUserIds); the sending client's queue and local id; whether the
 * recipients' rows were written with the message. The recipients themselves are the message's
 * recipients record. `owner` and `leaseUntil` (ms): who is delivering and until when nobody else
 * may; `attempts`: deliveries started so far (a later one first looks for the events an earlier
 * one wrote).
 */
export type PendingDelivery = {
  flags: string[];
  exceptions: { flags: string[]; users: string }[];
  echo: { queueId?: string; localId?: string };
  rowsWritten: boolean;
  owner: string;
  leaseUntil: number;
  attempts: number;
};

/** A recipient of a new message and its flags (`read` for the sender, mentions, …). */
export type MessageRecipient = { userId: number; flags: string[] };

/** A topic of a channel as the topics endpoint lists it: the name as last sent and its newest message. */
export type TopicSummary = { channelId: number; topic: string; maxMessageId: number };

/** The flags this server stores on a row for a mention: they put the row in the user's mentioned index. */
export const MENTION_FLAGS: readonly string[] = ['mentioned', 'wildcard_mentioned'];

/** The flags a row gets from its message's content, which a content edit sets again: the mentions and has_alert_word. */
export const CONTENT_FLAGS: readonly string[] = [...MENTION_FLAGS, 'has_alert_word'];

/** Upstream's wildcard mention flags: the deprecated wildcard_mentioned (stored here) and its channel and topic forms. */
export const WILDCARD_MENTION_FLAGS: readonly string[] = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** Every flag that says a message mentions its receiver, upstream's or ours (the is:mentioned narrow). */
export const ANY_MENTION_FLAGS: readonly string[] = ['mentioned', ...WILDCARD_MENTION_FLAGS, 'group_mentioned'];

/** A receiver's row for a message: its flags. */
export type UserMessage = {
  userId: number;
  messageId: number;
  realmId: number;
  flags: string[];
  /** Copied from the message for the unread summary and the narrows' filters. */
  senderId?: number;
  streamId?: number | null;
  topic?: string;
  dmUserIds?: number[];
  dateSent?: number;
};

/** The most unread messages of a user read at once (upstream's bound of the unread summary), newest first. */
export const MAX_UNREAD_MESSAGES = 50000;

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
