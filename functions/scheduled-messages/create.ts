// POST /scheduled_messages
import { checkScheduleMessage } from '../../lib/actions/scheduled-messages';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { clientName, messageType, userAgentOf } from '../../lib/models/message-send';
import { scheduledTo } from '../../lib/models/scheduled-message';
import { bool, int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, event }) => {
  // Declaration order is upstream's validation order.
  const p = params({
    content: rawString(),
    read_by_sender: json(bool).optional(),
    to: json(scheduledTo),
    type: rawString(messageType),
    scheduled_delivery_timestamp: json(int),
    topic: rawString().alias('subject').optional(),
  });
  const message = await checkScheduleMessage(user, realm, {
    type: p.type,
    to: p.to,
    topic: p.topic,
    content: p.content,
    scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
    readBySender: p.read_by_sender,
    client: clientName(undefined, userAgentOf(event.headers)),
  });
  return { scheduled_message_id: message.id };
});
