// DELETE /messages/{message_id}/reactions: removes one of the caller's emoji reactions from a message.
import { checkRemoveReaction } from '../../lib/actions/messages/reactions';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const messageId = pathInt('message_id');
  const p = params({
    emoji_name: rawString().optional(),
    emoji_code: rawString().optional(),
    reaction_type: rawString().optional(),
  });
  await checkRemoveReaction(user, messageId, { emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type });
});
