// Emoji reactions (POST and DELETE /messages/{message_id}/reactions), as upstream's
// actions/reactions.py and views/reactions.py: the reaction is one key of the message item's
// `reactions` map, written conditionally, then one `reaction` event goes to everyone who can see
// the message.
import { accessMessage, type AccessedMessage } from '../access/messages';
import { checkEmojiRequest, emojiNameToCode } from '../emoji';
import { ApiError, BadRequestError, ErrorCode } from '../errors';
import { sendEvent } from '../events/send';
import { nowMs } from '../clock';
import type { ReactionEvent } from '../models/event';
import { existingEmojiName, reactionKey, type ReactionType, type StoredReaction } from '../models/reaction';
import type { User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as reactionsStore from '../store/reactions';

export type ReactionRequest = { emojiName: string | undefined; emojiCode: string | undefined; reactionType: string | undefined };

const reactionExists = () => new ApiError('Reaction already exists.', { code: ErrorCode.REACTION_ALREADY_EXISTS });
const reactionMissing = () => new ApiError("Reaction doesn't exist.", { code: ErrorCode.REACTION_DOES_NOT_EXIST });

/**
 * Who gets a reaction event (upstream's event_recipient_ids_for_action_on_messages): a direct
 * message's participants; a private channel's subscribers (with protected history, only those who
 * received the message); a public channel's subscribers plus the users with a row of the message
 * who are not subscribed. This service finds the latter among the users who reacted to it (they
 * got a historical row by reacting) and the acting user: the message's recipients record
 * (lib/store/messages.ts listRowHolderIds) is not read here yet, so a former subscriber who does
 * not react is not told.
 */
const reactionAudience = async (accessed: AccessedMessage, actingUserId: number, reactorIds: number[]): Promise<number[]> => {
  const { message, channel } = accessed;
  if (!channel) return message.dmUserIds;
  const subscribers = await channelsStore.listSubscriberIdsOfChannel(channel.id);
  if (!channel.historyPublicToSubscribers) return reactionsStore.listUsersWithMessageRow(message.id, subscribers);
  if (channel.inviteOnly) return subscribers;
  return [...new Set([...subscribers, ...reactorIds, actingUserId])];
};

const notifyReactionUpdate = async (
  user: User,
  accessed: AccessedMessage,
  reaction: StoredReaction,
  op: 'add' | 'remove',
  reactorIds: number[],
) => {
  const event: ReactionEvent = {
    type: 'reaction',
    op,
    user_id: user.id,
    message_id: accessed.message.id,
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
  };
  const users = await reactionAudience(accessed, user.id, reactorIds);
  if (users.length > 0) await sendEvent(user.realmId, event, { users });
};

const reactorIdsOf = (accessed: AccessedMessage): number[] => Object.values(accessed.message.reactions ?? {}).map((r) => r.userId);

/**
 * POST /messages/{message_id}/reactions (upstream's check_add_reaction). Checks, in upstream's
 * order: access to the message ("Invalid message(s)"; not in an archived channel); a missing code
 * or type is looked up from the name ("Emoji '{name}' does not exist"); the user has no reaction
 * with that type and code ("Reaction already exists."); then, if another user already reacted
 * with that emoji, the new reaction takes that reaction's name unchecked (a vote), else the name,
 * code and type must name one emoji (checkEmojiRequest's messages). Writes the reaction
 * conditionally (a concurrent identical reaction makes this one "Reaction already exists."), then
 * a historical row for a user who never received the message. Emits `reaction` op add to
 * everyone who can see the message (reactionAudience).
 */
export const checkAddReaction = async (user: User, messageId: number, req: ReactionRequest & { emojiName: string }): Promise<void> => {
  const accessed = await accessMessage(user, messageId, { modifying: true });
  const { message } = accessed;
  let { emojiCode: code, reactionType: type } = req;
  if (code === undefined || type === undefined) {
    const found = emojiNameToCode(req.emojiName);
    code ??= found.code;
    type ??= found.type;
  }
  if (message.reactions?.[reactionKey(user.id, type, code)]) throw reactionExists();
  let name = existingEmojiName(message.reactions, type, code);
  if (name === undefined) {
    checkEmojiRequest(req.emojiName, code, type);
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
  await notifyReactionUpdate(user, accessed, reaction, 'add', reactorIdsOf(accessed));
};

/**
 * DELETE /messages/{message_id}/reactions (upstream's remove_reaction). Checks, in upstream's
 * order: access to the message ("Invalid message(s)"); a code, or else a name to look it up
 * ("At least one of the following arguments must be present: emoji_name, emoji_code"; "Emoji
 * '{name}' does not exist"); the type defaults to unicode_emoji and is not validated (a stored
 * reaction was valid when added); the user's reaction with that type and code exists ("Reaction
 * doesn't exist.", also for the loser of two concurrent removals). Removes it conditionally and
 * emits `reaction` op remove, with the stored name, to everyone who can see the message.
 */
export const checkRemoveReaction = async (user: User, messageId: number, req: ReactionRequest): Promise<void> => {
  const accessed = await accessMessage(user, messageId, { modifying: true });
  const { message } = accessed;
  let code = req.emojiCode;
  if (code === undefined) {
    if (req.emojiName === undefined)
      throw new BadRequestError('At least one of the following arguments must be present: emoji_name, emoji_code');
    code = emojiNameToCode(req.emojiName).code;
  }
  const type = req.reactionType ?? 'unicode_emoji';
  const stored = message.reactions?.[reactionKey(user.id, type, code)];
  if (!stored) throw reactionMissing();
  if (!(await reactionsStore.removeReaction(user.realmId, message.id, user.id, type, code))) throw reactionMissing();
  await notifyReactionUpdate(user, accessed, stored, 'remove', reactorIdsOf(accessed));
};
