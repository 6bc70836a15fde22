// PATCH /messages/{message_id}: edit a message's content, or move it (and later or all messages of
// its topic) to another topic or another channel.
import { checkUpdateMessage } from '../../lib/actions/messages/edit';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { PROPAGATE_MODES } from '../../lib/models/message-edit';
import { bool, int, literal } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const messageId = pathInt('message_id');
  // Declaration order is upstream's validation order.
  const p = params({
    content: rawString().optional(),
    prev_content_sha256: rawString().optional(),
    propagate_mode: rawString(literal(...PROPAGATE_MODES)).default('change_one'),
    send_notification_to_new_thread: json(bool).default(true),
    send_notification_to_old_thread: json(bool).default(false),
    stream_id: json(int).optional(),
    topic: rawString().alias('subject').optional(),
  });
  await checkUpdateMessage(realm, user, messageId, {
    content: p.content,
    prevContentSha256: p.prev_content_sha256,
    propagateMode: p.propagate_mode,
    sendNotificationToNewThread: p.send_notification_to_new_thread,
    sendNotificationToOldThread: p.send_notification_to_old_thread,
    streamId: p.stream_id,
    topic: p.topic,
  });
  return { detached_uploads: [] };
});
