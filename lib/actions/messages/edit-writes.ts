// What a content edit (edit.ts) and a move (move.ts) both write and send: a message's edit with
// its history entry, the rows' mention flags, and the `update_message` event to its holders.
import { sendEventPerRecipient } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import type { UpdateMessageEvent } from '../../models/event';
import { type EditHistoryEntry, type PropagateMode } from '../../models/message-edit';
import type { User } from '../../models/user';
import { type TopicLink } from '../../render';
import * as channelsStore from '../../store/channels';
import { doStartPushNotificationsOfEdit } from '../push/notifications';
import * as editsStore from '../../store/message-edits';

/** What a move changes, as the `update_message` event of each of its batches says it. */
export type MovedFields = {
  destination: Channel | null;
  origTopic: string;
  topic: string | undefined;
  topicLinks: TopicLink[];
  propagateMode: PropagateMode;
};

/** What the content of an edit renders to, and which rows it mentions or alerts. */
export type RenderedEdit = {
  content: string;
  html: string;
  /** A row's flags from the new content (CONTENT_FLAGS: mentions and has_alert_word). */
  mentionFlagsOf: (userId: number) => string[];
  isMeMessage: boolean;
  hasLink: boolean;
};

export type UpdatePlan = {
  message: Message;
  channel: Channel | null;
  /** The channel the messages move to, or null when they stay in theirs. */
  destination: Channel | null;
  movedIds: number[];
  topic: string | undefined;
  /** The new topic's links (upstream's topic_links), stored on every moved message. */
  topicLinks: TopicLink[];
  propagateMode: PropagateMode;
  resolveToggle: boolean;
  rendered: RenderedEdit | undefined;
  notifyNewTopic: boolean;
  notifyOldTopic: boolean;
  /** Only the messages the editor received move (to another channel, out of one with protected history). */
  receivedOnly: boolean;
  now: number;
};

/**
 * Writes one message's edit with its history entry, re-reading and retrying when a concurrent edit
 * won. `applies`: whether the edit still applies to the message as re-read (a moved message that
 * a concurrent move already took is left alone); undefined when the message is gone or no longer applies.
 */
export const writeEditOf = async (
  realmId: number,
  first: Message,
  changes: (m: Message) => { fields: Parameters<typeof editsStore.writeMessageEdit>[1]; entry: EditHistoryEntry },
  applies: (m: Message) => boolean = () => true,
): Promise<Message | undefined> => {
  let m: Message | undefined = first;
  for (let attempt = 0; m && applies(m) && attempt < 5; attempt += 1) {
    const { fields, entry } = changes(m);
    if (await editsStore.writeMessageEdit(m, fields, [entry, ...(m.editHistory ?? [])])) return m;
    m = await editsStore.getEditableMessage(realmId, m.id);
  }
  if (m && applies(m)) throw new Error(`message ${first.id}: edits kept conflicting`);
  return undefined;
};

/** The `update_message` event of an edit of `messageIds` (`message` the one the edit names), without the receiver's flags. */
export const updateEventOf = (
  editor: User,
  now: number,
  message: Message,
  channel: Channel | null,
  messageIds: number[],
  move: MovedFields | undefined,
  rendered: RenderedEdit | undefined,
): UpdateMessageEvent => ({
  type: 'update_message',
  user_id: editor.id,
  edit_timestamp: now,
  message_id: message.id,
  message_ids: messageIds,
  rendering_only: false,
  flags: [],
  ...(channel !== null ? { stream_name: channel.name, stream_id: channel.id } : {}),
  ...(move ? { propagate_mode: move.propagateMode } : {}),
  ...(move && move.destination !== null ? { orig_subject: move.origTopic, new_stream_id: move.destination.id } : {}),
  ...(move && move.topic !== undefined ? { orig_subject: move.origTopic, subject: move.topic, topic_links: move.topicLinks } : {}),
  ...(rendered
    ? {
        orig_content: message.content,
        orig_rendered_content: message.renderedContent ?? '',
        content: rendered.content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
      }
    : {}),
});

/**
 * Sends an `update_message` to every row holder of the named message (`flagsOf`, each with their
 * own flags) and, for a channel whose history subscribers share, to its subscribers without a row
 * (`["read"]`): `subscribers` when a move to another channel decided them (moveAudience), else the
 * channel's.
 */
export const sendUpdateEvent = async (
  realmId: number,
  event: UpdateMessageEvent,
  flagsOf: Map<number, string[]>,
  channel: Channel | null,
  subscribers?: number[],
): Promise<void> => {
  const receivers = new Map(flagsOf);
  if (channel !== null && channel.historyPublicToSubscribers) {
    for (const id of subscribers ?? (await channelsStore.listSubscriberIdsOfChannel(channel.id))) {
      if (!receivers.has(id)) receivers.set(id, ['read']);
    }
  }
  await sendEventPerRecipient(
    realmId,
    [...receivers].map(([userId, flags]) => ({ userId, event: { ...event, flags } })),
  );
};

/**
 * Sets each row holder's mention flags after a content edit, and hands whoever the edit newly
 * mentions to the push job; their flags as they now are.
 */
export const setMentionFlags = async (
  message: Message,
  flagsOf: Map<number, string[]>,
  rendered: RenderedEdit,
): Promise<Map<number, string[]>> => {
  const out = new Map(flagsOf);
  await Promise.all(
    [...flagsOf.keys()].map(async (userId) => {
      const flags = await editsStore.setMentionFlagsOfRow(userId, message.id, rendered.mentionFlagsOf(userId));
      if (flags) out.set(userId, flags);
    }),
  );
  await doStartPushNotificationsOfEdit(message, flagsOf, out);
  return out;
};
