// POST /realm/test_welcome_bot_custom_message (upstream's send_test_welcome_bot_custom_message,
// feature level 416): an administrator previews a Welcome Bot custom message as new users would
// receive it, as a direct message from Welcome Bot to themselves.
import { BadRequestError } from '../../errors';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { sendInternalMessage } from '../messages/send';
import { ensureSystemBot, WELCOME_BOT } from '../people/system-bots';
import { forAdministrators } from '../requiring';

/**
 * Administrators only ("Must be an organization administrator"); an empty text is upstream's
 * "Message must not be empty". Sends the text as Welcome Bot's direct message to the caller
 * (Welcome Bot created if the stage has none), unread, with its `message` events; changes no
 * setting. Returns the message's id.
 */
export const checkSendTestWelcomeBotMessage = forAdministrators(async (user: User, realm: Realm, text: string): Promise<number> => {
  if (text.length === 0) throw new BadRequestError('Message must not be empty');
  const bot = await ensureSystemBot(WELCOME_BOT);
  return sendInternalMessage(realm, bot, { user }, text);
});
