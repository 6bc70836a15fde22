// GET /messages/{message_id}: one message the caller may see, and its raw Markdown.
import { fetchMessage } from '../../lib/actions/messages/fetch';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const p = params({
    apply_markdown: json(bool).default(true),
    allow_empty_topic_name: json(bool).default(false),
  });
  return fetchMessage(user, realm, pathInt('message_id'), {
    applyMarkdown: p.apply_markdown,
    clientGravatar: true,
    allowEmptyTopicName: p.allow_empty_topic_name,
  });
});
