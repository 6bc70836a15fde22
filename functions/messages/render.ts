// POST /messages/render: the HTML a message's content renders to (the composers' preview), from the
// renderer a send uses; nothing is stored.
import { previewRender } from '../../lib/actions/messages/render';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const p = params({ content: rawString() });
  return previewRender(user, realm, p.content);
});
