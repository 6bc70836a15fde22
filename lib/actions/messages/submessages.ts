// Submessages (POST /submessage), as upstream's views/submessage.py process_submessage and
// actions/submessage.py do_add_submessage: a vote, a new option or a checked task of a message's
// widget, stored with a new id, then one `submessage` event to everyone who holds a row of the
// message.
import { accessMessage, listRowHolders } from '../../access/messages';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { SubmessageEvent } from '../../models/event';
import {
  MAX_SUBMESSAGE_BYTES_PER_MESSAGE,
  MAX_SUBMESSAGE_CONTENT_LENGTH,
  MAX_SUBMESSAGE_TYPE_LENGTH,
  MAX_SUBMESSAGES_PER_MESSAGE,
  pollDataError,
  todoDataError,
  widgetTypeOf,
  type StoredSubmessage,
} from '../../models/submessage';
import type { User } from '../../models/user';
import * as submessagesStore from '../../store/submessages';

export type SubmessageRequest = { messageId: number; msgType: string; content: string };

const cannotAttach = () => new BadRequestError('You cannot attach a submessage to this message.');

/**
 * POST /submessage (upstream's process_submessage). Checks, in upstream's order: access to the
 * message ("Invalid message(s)"; not in an archived channel); that the caller is its sender or its
 * sender started its submessages, a widget or one of their own ("You cannot attach a submessage to
 * this message."); the content is JSON ("Invalid json for submessage"); for a poll or todo widget,
 * upstream's validate_poll_data / validate_todo_data (their messages; editing the question or the
 * title only by the widget's author). Beyond upstream, bounded: msg_type and content lengths, and
 * at most MAX_SUBMESSAGES_PER_MESSAGE (and 256 KB) per message. Writes the submessage with a new
 * id and the message's counters in one transaction (lib/store/submessages.ts), then emits
 * `submessage` to the message's row holders (listRowHolders).
 */
export const checkAddSubmessage = async (user: User, req: SubmessageRequest): Promise<void> => {
  const { message } = await accessMessage(user, req.messageId, { modifying: true });
  const bySender = message.senderId === user.id;
  if (!bySender && message.widget === undefined && message.senderSubmessaged !== true) throw cannotAttach();
  let data: unknown;
  try {
    data = JSON.parse(req.content);
  } catch {
    throw new BadRequestError('Invalid json for submessage');
  }
  const widgetType = widgetTypeOf(message.widget);
  const error = widgetType === 'poll' ? pollDataError(data, bySender) : widgetType === 'todo' ? todoDataError(data, bySender) : undefined;
  if (error !== undefined) throw new BadRequestError(error);
  if (req.msgType.length > MAX_SUBMESSAGE_TYPE_LENGTH)
    throw new BadRequestError(`msg_type is too long (limit: ${MAX_SUBMESSAGE_TYPE_LENGTH} characters)`);
  if (req.content.length > MAX_SUBMESSAGE_CONTENT_LENGTH)
    throw new BadRequestError(`Submessage content is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)`);
  const submessage: StoredSubmessage = {
    id: await submessagesStore.allocateSubmessageId(user.realmId),
    senderId: user.id,
    msgType: req.msgType,
    content: req.content,
  };
  const outcome = await submessagesStore.addSubmessage(user.realmId, message.id, submessage, { bySender });
  if (outcome === 'missing') throw new BadRequestError('Invalid message(s)');
  if (outcome === 'not-started') throw cannotAttach();
  if (outcome === 'full')
    throw new BadRequestError(
      `This message has reached its limit of submessages (${MAX_SUBMESSAGES_PER_MESSAGE}, or ${MAX_SUBMESSAGE_BYTES_PER_MESSAGE / 1024} KB).`,
    );
  const event: SubmessageEvent = {
    type: 'submessage',
    msg_type: submessage.msgType,
    message_id: message.id,
    submessage_id: submessage.id,
    sender_id: user.id,
    content: submessage.content,
  };
  const users = await listRowHolders(message);
  if (users.length > 0) await sendEvent(user.realmId, event, { users });
};
