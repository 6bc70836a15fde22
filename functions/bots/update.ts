// PATCH /bots/{bot_id}: the bot's owner or an administrator changes its name, role, owner or outgoing webhook service.
import { botDefaults, checkUpdateBot } from '../../lib/actions/people/bots';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { ROLE_VALUES, ServiceInterface } from '../../lib/models/user';
import { int, intIn, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const updateBot = checkUpdateBot.authorize(user);
  const p = params({
    full_name: rawString().optional(),
    role: json(intIn(ROLE_VALUES)).optional(),
    bot_owner_id: json(int).optional(),
    service_payload_url: json(str).optional(),
    service_interface: json(int).default(ServiceInterface.GENERIC),
  });
  const { bot, ownerEmail } = await updateBot(realm, pathInt('bot_id'), {
    fullName: p.full_name,
    role: p.role,
    botOwnerId: p.bot_owner_id,
    servicePayloadUrl: p.service_payload_url,
    serviceInterface: p.service_interface,
  });
  return {
    full_name: bot.fullName,
    // Upstream echoes the parameters (the interface's default when none was sent).
    service_interface: p.service_interface,
    service_payload_url: p.service_payload_url ?? null,
    config_data: null,
    ...botDefaults(bot),
    // Upstream leaves it out for a bot without an owner.
    ...(ownerEmail === null ? {} : { bot_owner: ownerEmail }),
  };
});
