// GET /bots: the caller's own active bots, with an outgoing webhook bot's service.
import { botDefaults, listOwnBots } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';
import { botServices } from '../../lib/models/user';

export const handler = apiHandler(async ({ user }) => {
  const bots = await listOwnBots(user);
  return {
    bots: bots.map((bot) => ({
      username: bot.email,
      full_name: bot.fullName,
      api_key: bot.apiKey,
      ...botDefaults(bot),
      services: botServices(bot),
    })),
  };
});
