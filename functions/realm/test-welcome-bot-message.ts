// POST /realm/test_welcome_bot_custom_message: Welcome Bot sends the given custom message to the
// calling administrator, who previews it as a new user would get it.
import { checkSendTestWelcomeBotMessage } from '../../lib/actions/organization/welcome-bot';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../../lib/models/realm';
import { string } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const send = checkSendTestWelcomeBotMessage.authorize(user);
  const p = params({ welcome_message_custom_text: rawString(string({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH })) });
  return { message_id: await send(realm, p.welcome_message_custom_text) };
});
