// A message's edit history (upstream's get_message_edit_history), as the organization lets it be seen.
import { BadRequestError } from '../../errors';
import { type HistorySnapshot, historySnapshots, messageEditSettings, visibleEditHistory } from '../../models/message-edit';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { renderMessage } from '../../render';
import { accessEditableMessage } from '../../access/messages';

/**
 * Upstream's get_message_edit_history: refused when the organization shows no edit history
 * ("Message edit history is disabled in this organization"), then access as for reading; the
 * snapshots oldest first (only moves under the "moves" policy). Without `allowEmptyTopicName` the
 * empty topic reads as the organization's empty-topic display name.
 */
export const getMessageHistory = async (
  realm: Realm,
  user: User,
  messageId: number,
  allowEmptyTopicName: boolean,
): Promise<HistorySnapshot[]> => {
  const visibility = messageEditSettings(realm).editHistoryVisibility;
  if (visibility === 'none') throw new BadRequestError('Message edit history is disabled in this organization');
  const { message } = await accessEditableMessage(user, messageId, { modifying: false });
  const history = visibleEditHistory(message.editHistory ?? [], visibility) ?? [];
  const snapshots = historySnapshots(
    {
      topic: message.topic,
      content: message.content,
      renderedContent:
        message.renderedContent ?? renderMessage(message.content, { users: [], groups: [], channels: [], linkifiers: [] }).html,
      senderId: message.senderId,
      dateSent: message.dateSent,
      streamId: message.streamId,
    },
    history,
  );
  if (allowEmptyTopicName || message.streamId === null) return snapshots;
  const shown = (topic: string) => (topic === '' ? realm.emptyTopicDisplayName : topic);
  return snapshots.map((s) => ({
    ...s,
    topic: shown(s.topic),
    ...(s.prev_topic !== undefined ? { prev_topic: shown(s.prev_topic) } : {}),
  }));
};
