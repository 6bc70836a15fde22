// PATCH /scheduled_messages/{scheduled_message_id}
import { checkEditScheduledMessage } from '../../lib/actions/scheduled-messages';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { clientName, messageType, userAgentOf } from '../../lib/models/message-send';
import { scheduledTo } from '../../lib/models/scheduled-message';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt, event }) => {
  // Declaration order is upstream's validation order.
  const p = params({
    content: rawString().optional(),
    type: rawString(messageType).optional(),
    scheduled_delivery_timestamp: json(int).optional(),
    to: json(scheduledTo).optional(),
    topic: rawString().alias('subject').optional(),
  });
  await checkEditScheduledMessage(user, realm, pathInt('scheduled_message_id'), {
    type: p.type,
    to: p.to,
    topic: p.topic,
    content: p.content,
    scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
    client: clientName(undefined, userAgentOf(event.headers)),
  });
});
