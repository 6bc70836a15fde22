// DELETE /bot_storage: removes keys (or everything) from the caller's own storage.
import { checkRemoveBotStorage } from '../../lib/actions/people/bot-storage';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { keys } = params({ keys: json(list(str)).optional() });
  await checkRemoveBotStorage(user, keys);
  return {};
});
