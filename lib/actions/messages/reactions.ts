// Emoji reactions (POST and DELETE /messages/{message_id}/reactions), as upstream's
// actions/reactions.py and views/reactions.py: the reaction is one key of the message item's
// `reactions` map, written conditionally, then one `reaction` event goes to upstream's audience of
// an action on the message (messageActionAudience): its active subscribers as the channel's history
// allows, and the users who hold a row of it, read from its recipients record.
import { accessMessage, listRowHolders, messageActionAudience, type AccessedMessage } from '../../access/messages';
import { checkEmojiRequest, emojiNameToCode } from '../../emoji';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent } from '../../events/send';
import { nowMs } from '../../clock';
import type { ReactionEvent } from '../../models/event';
import { existingEmojiName, reactionKey, type ReactionType, type StoredReaction } from '../../models/reaction';
import type { User } from '../../models/user';
import * as reactionsStore from '../../store/reactions';
import { lazyRealmEmoji, realmEmojiOf } from '../organization/emoji';

export type ReactionRequest = { emojiName: string | undefined; emojiCode: string | undefined; reactionType: string | undefined };

const reactionExists = () => new ApiError('Reaction already exists.', { code: ErrorCode.REACTION_ALREADY_EXISTS });
const reactionMissing = () => new ApiError("Reaction doesn't exist.", { code: ErrorCode.REACTION_DOES_NOT_EXIST });

const notifyReactionUpdate = async (user: User, accessed: AccessedMessage, reaction: StoredReaction, op: 'add' | 'remove') => {
  const event: ReactionEvent = {
    type: 'reaction',
    op,
    user_id: user.id,
    message_id: accessed.message.id,
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
  };
  const users = await messageActionAudience(accessed.message, accessed.channel, await listRowHolders(accessed.message));
  if (users.length > 0) await sendEvent(user.realmId, event, { users });
};

/**
 * POST /messages/{message_id}/reactions (upstream's check_add_reaction). Checks, in upstream's
 * order: access to the message ("Invalid message(s)"; not in an archived channel); a missing code
 * or type is looked up from the name ("Emoji '{name}' does not exist"); the user has no reaction
 * with that type and code ("Reaction already exists."); then, if another user already reacted
 * with that emoji, the new reaction takes that reaction's name unchecked (a vote), else the name,
 * code and type must name one emoji (checkEmojiRequest's messages). Writes the reaction
 * conditionally (a concurrent identical reaction makes this one "Reaction already exists."), then
 * a historical row for a user who never received the message. Emits `reaction` op add to
 * everyone messageActionAudience names, given the message's row holders (listRowHolders, which
 * include the historical row just written).
 */
export const checkAddReaction = async (user: User, messageId: number, req: ReactionRequest & { emojiName: string }): Promise<void> => {
  const accessed = await accessMessage(user, messageId, { modifying: true });
  const { message } = accessed;
  let { emojiCode: code, reactionType: type } = req;
  // The organization's custom emoji are read only when a name is looked up or a custom emoji named.
  const custom = lazyRealmEmoji(user.realmId);
  if (code === undefined || type === undefined) {
    const found = emojiNameToCode(req.emojiName, await custom());
    code ??= found.code;
    type ??= found.type;
  }
  if (message.reactions?.[reactionKey(user.id, type, code)]) throw reactionExists();
  let name = existingEmojiName(message.reactions, type, code);
  if (name === undefined) {
    checkEmojiRequest(req.emojiName, code, type, type === 'realm_emoji' ? await custom() : []);
    name = req.emojiName;
  }
  const reaction: StoredReaction = {
    userId: user.id,
    emojiName: name,
    emojiCode: code,
    reactionType: type as ReactionType,
    addedAt: nowMs(),
  };
  const outcome = await reactionsStore.addReaction(user.realmId, message.id, reaction);
  if (outcome === 'exists') throw reactionExists();
  if (outcome === 'missing') throw new BadRequestError('Invalid message(s)');
  if (!accessed.userMessage) await reactionsStore.putHistoricalUserMessage(message, user.id);
  await notifyReactionUpdate(user, accessed, reaction, 'add');
};

/**
 * DELETE /messages/{message_id}/reactions (upstream's remove_reaction). Checks, in upstream's
 * order: access to the message ("Invalid message(s)"); a code, or else a name to look it up
 * ("At least one of the following arguments must be present: emoji_name, emoji_code"; "Emoji
 * '{name}' does not exist"); the type defaults to unicode_emoji and is not validated (a stored
 * reaction was valid when added); the user's reaction with that type and code exists ("Reaction
 * doesn't exist.", also for the loser of two concurrent removals). Removes it conditionally and
 * emits `reaction` op remove, with the stored name, to the same audience as an add.
 */
export const checkRemoveReaction = async (user: User, messageId: number, req: ReactionRequest): Promise<void> => {
  const accessed = await accessMessage(user, messageId, { modifying: true });
  const { message } = accessed;
  let code = req.emojiCode;
  if (code === undefined) {
    if (req.emojiName === undefined)
      throw new BadRequestError('At least one of the following arguments must be present: emoji_name, emoji_code');
    code = emojiNameToCode(req.emojiName, await realmEmojiOf(user.realmId)).code;
  }
  const type = req.reactionType ?? 'unicode_emoji';
  const stored = message.reactions?.[reactionKey(user.id, type, code)];
  if (!stored) throw reactionMissing();
  if (!(await reactionsStore.removeReaction(user.realmId, message.id, user.id, type, code))) throw reactionMissing();
  await notifyReactionUpdate(user, accessed, stored, 'remove');
};
