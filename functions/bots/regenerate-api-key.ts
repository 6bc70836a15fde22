// POST /bots/{bot_id}/api_key/regenerate: the bot's owner or an administrator replaces its API key.
import { doRegenerateBotApiKey } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => ({ api_key: await doRegenerateBotApiKey(user, pathInt('bot_id')) }));
