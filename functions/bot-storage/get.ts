// GET /bot_storage: values from the caller's own storage.
import { getBotStorage } from '../../lib/actions/people/bot-storage';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { keys } = params({ keys: json(list(str)).optional() });
  return { storage: await getBotStorage(user, keys) };
});
