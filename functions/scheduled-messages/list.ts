// GET /scheduled_messages
import { listScheduledMessages } from '../../lib/actions/scheduled-messages';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiScheduledMessage } from '../../lib/models/scheduled-message';
import { renderPlainMarkdown } from '../../lib/render';

export const handler = apiHandler(async ({ user }) => ({
  scheduled_messages: (await listScheduledMessages(user)).map((m) => toApiScheduledMessage(m, renderPlainMarkdown)),
}));
