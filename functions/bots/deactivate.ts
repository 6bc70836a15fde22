// DELETE /bots/{bot_id}: the bot's owner or an administrator deactivates it.
import { checkDeactivateBot } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkDeactivateBot(user, realm, pathInt('bot_id'));
});
