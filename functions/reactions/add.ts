// POST /messages/{message_id}/reactions: adds the caller's emoji reaction to a message.
import { checkAddReaction } from '../../lib/actions/messages/reactions';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const messageId = pathInt('message_id');
  const p = params({
    emoji_name: rawString(),
    emoji_code: rawString().optional(),
    reaction_type: rawString().optional(),
  });
  await checkAddReaction(user, messageId, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
});
