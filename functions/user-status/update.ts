// POST /users/me/status: the caller's status text and emoji, and the legacy `away`.
import { checkUpdateUserStatus } from '../../lib/actions/people/status';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({
    away: json(bool).optional(),
    status_text: rawString().optional(),
    emoji_name: rawString().optional(),
    emoji_code: rawString().optional(),
    reaction_type: rawString().optional(),
  });
  await checkUpdateUserStatus(user, {
    away: p.away,
    statusText: p.status_text?.trim(),
    emojiName: p.emoji_name,
    emojiCode: p.emoji_code,
    reactionType: p.reaction_type,
  });
  return {};
});
