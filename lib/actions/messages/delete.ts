// Deleting a message (upstream's zerver/views/message_edit.py delete_message_backend and
// zerver/actions/message_delete.py): the writes, and the events that tell who held it. Who may
// delete what is lib/access/message-edit.ts; the writes are lib/store/message-edits.ts.
import { subscriberViewers } from '../../access/channels';
import { checkCanDeleteMessage } from '../../access/message-edit';
import { RealmGroups } from '../../access/user-groups';
import { nowSeconds } from '../../clock';
import { mapLimited } from '../../concurrency';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import type { DeleteMessageEvent } from '../../models/event';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import { doStartPushRemovalsOfDeleted } from '../push/removals';
import { messageActionAudience, rowHolderCandidates } from '../../access/messages';
import * as editsStore from '../../store/message-edits';
import * as usersStore from '../../store/users';
import { accessEditableMessage } from '../../access/messages';

/** The per-message `delete_message` events of a deletion of several messages sent at a time. */
const DELETE_EVENTS_CONCURRENCY = 16;

/**
 * Upstream's delete_message_backend: access for modification, checkCanDeleteMessage, then
 * doDeleteMessage.
 */
export const checkDeleteMessage = async (realm: Realm, user: User, messageId: number): Promise<void> => {
  const { message, channel } = await accessEditableMessage(user, messageId, { modifying: true });
  const [groups, sender] = await Promise.all([
    RealmGroups.load(realm.id),
    message.senderId === user.id ? Promise.resolve(user) : usersStore.get(realm.id, message.senderId),
  ]);
  checkCanDeleteMessage(realm, groups, user, message, { channel, sender, now: nowSeconds() });
  await doDeleteMessage(user, message, channel);
};

/**
 * The writes of a delete, without its events: the message's item and every row of it
 * (editsStore.deleteMessage), and who is told of it (messageActionAudience over the rows'
 * holders). `deleted` false: a concurrent delete won. `firstMessageId`: the channel's new first
 * message id when this message was its first (`channel` as the caller knows it).
 */
export const deleteMessageAndRows = async (
  message: Message,
  channel: Channel | null,
): Promise<{ deleted: boolean; receivers: number[]; firstMessageId?: number | null }> => {
  const candidates = await rowHolderCandidates(message);
  const rows = await editsStore.listRowsOfMessage(message.id, candidates);
  const holders = rows.map((r) => r.userId);
  const { deleted, firstMessageId } = await editsStore.deleteMessage(message, holders, channel?.firstMessageId);
  if (!deleted) return { deleted, receivers: [] };
  await doStartPushRemovalsOfDeleted(message.realmId, message.id, holders);
  return { deleted, receivers: await messageActionAudience(message, channel, holders), firstMessageId };
};

/**
 * Deletes a message (its item, the recipients' rows, and lowers the topic summary, the
 * conversation items and the channel's first message id that named it). A concurrent delete that
 * won first: "Message already deleted". Emits `delete_message` to upstream's receivers (direct
 * messages: the participants with a row; protected-history channels: subscribers with a row;
 * other private channels: all subscribers; public channels: subscribers and non-guests with a
 * row; always the deleting user), and a `stream` update of `first_message_id` to those who see
 * the channel's metadata when it changed (subscriberViewers: its subscribers, and every non-guest
 * for a public channel, its administrators and metadata groups for a private one).
 */
export const doDeleteMessage = async (actingUser: User, message: Message, channel: Channel | null): Promise<void> => {
  const { deleted, receivers, firstMessageId } = await deleteMessageAndRows(message, channel);
  if (!deleted) throw new BadRequestError('Message already deleted');
  const event: DeleteMessageEvent =
    channel === null
      ? { type: 'delete_message', message_ids: [message.id], message_type: 'private' }
      : {
          type: 'delete_message',
          message_ids: [message.id],
          message_type: 'stream',
          stream_id: channel.id,
          topic: message.topic.toLowerCase(),
        };
  await sendEvent(actingUser.realmId, event, { users: [...new Set([...receivers, actingUser.id])] });
  if (channel !== null && firstMessageId !== undefined) {
    await sendEvent(
      actingUser.realmId,
      { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'first_message_id', value: firstMessageId },
      // Who sees the channel's metadata (upstream's can_access_stream_metadata_user_ids), without
      // reading the organization's users.
      await subscriberViewers(
        channel,
        new Set(await channelsStore.listSubscriberIdsOfChannel(channel.id)),
        await RealmGroups.load(channel.realmId),
      ),
    );
  }
};

/**
 * A deletion of several messages: the whole event for queues with bulk_message_deletion, and one
 * event per message for the others (lib/events/filters/delete-message.ts), as upstream's queues
 * rewrite it per client.
 */
export const sendDeleteMessageEvents = async (realmId: number, event: DeleteMessageEvent, users: number[]): Promise<void> => {
  if (event.message_ids.length === 1) {
    await sendEvent(realmId, event, { users });
    return;
  }
  await sendEvent(realmId, { ...event, for_queues: 'bulk' }, { users });
  await mapLimited(event.message_ids, DELETE_EVENTS_CONCURRENCY, (id) =>
    sendEvent(realmId, { ...event, message_ids: [id], for_queues: 'single' }, { users }),
  );
};
