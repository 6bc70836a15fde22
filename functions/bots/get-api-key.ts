// GET /bots/{bot_id}/api_key: the bot's owner or an administrator reads its API key.
import { getBotApiKey } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => ({ api_key: await getBotApiKey(user, pathInt('bot_id')) }));
