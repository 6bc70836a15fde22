// POST /bots: a member or administrator creates a bot they own (an outgoing webhook bot with its service).
import { botDefaults, checkCreateBot } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { BotType, ServiceInterface } from '../../lib/models/user';
import { int, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const createBot = checkCreateBot.authorize(user);
  const p = params({
    full_name: rawString(),
    short_name: rawString(),
    bot_type: json(int).default(BotType.DEFAULT),
    payload_url: json(str).optional(),
    interface_type: json(int).default(ServiceInterface.GENERIC),
  });
  const bot = await createBot(realm, {
    fullName: p.full_name,
    shortName: p.short_name,
    botType: p.bot_type,
    payloadUrl: p.payload_url,
    interfaceType: p.interface_type,
  });
  return { user_id: bot.id, api_key: bot.apiKey, ...botDefaults(bot) };
});
