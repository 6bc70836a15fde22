// POST /users/{user_id}/status: an administrator changes another user's status text and emoji.
import { updateStatusForUser } from '../../lib/actions/people/status';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, pathInt, params }) => {
  const p = params({
    status_text: rawString().optional(),
    emoji_name: rawString().optional(),
    emoji_code: rawString().optional(),
    reaction_type: rawString().optional(),
  });
  await updateStatusForUser(user, pathInt('user_id'), {
    statusText: p.status_text?.trim(),
    emojiName: p.emoji_name,
    emojiCode: p.emoji_code,
    reactionType: p.reaction_type,
  });
  return {};
});
