// POST /messages: send a channel message or a direct message.
import { sendMessage } from '../../lib/actions/messages/send';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { clientName, messageType, userAgentOf } from '../../lib/models/message-send';
import { bool, float } from '../../lib/validation/validators';

// Incoming-webhook bots may send through POST /messages, as upstream's allow_incoming_webhooks lets them.
export const handler = apiHandler(
  async ({ user, realm, params, event }) => {
    // Declaration order is upstream's validation order.
    const p = params({
      forged: rawString().optional(),
      local_id: rawString().optional(),
      content: rawString(),
      queue_id: rawString().optional(),
      read_by_sender: json(bool).optional(),
      sender: rawString().optional(),
      to: rawString().optional(),
      type: rawString(messageType),
      time: json(float).optional(),
      topic: rawString().alias('subject').optional(),
      widget_content: rawString().optional(),
      client: rawString().optional(),
    });
    const client = clientName(p.client, userAgentOf(event.headers));
    return sendMessage(user, realm, {
      type: p.type,
      to: p.to,
      topic: p.topic,
      content: p.content,
      client,
      readBySender: p.read_by_sender,
      queueId: p.queue_id,
      localId: p.local_id,
      forged: p.forged,
      sender: p.sender,
      widgetContent: p.widget_content,
    });
  },
  { allowWebhookBots: true },
);
