// Emoji reactions on a message. They live on the message item itself, in the map `reactions`
// keyed by reactionKey (one entry per user, reaction type and emoji code, as upstream's unique
// constraint on Reaction), so that adding one is a conditional write of that one key: two users
// reacting at once both land, and the same reaction added twice lands once.

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

/** One user's reaction as stored in the message item's `reactions` map. */
export type StoredReaction = {
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
  /** When it was added (ms): the API lists reactions in the order they were added. */
  addedAt: number;
};

/** The stored map: reactionKey → reaction (absent on a message nobody reacted to). */
export type StoredReactions = Record<string, StoredReaction>;

/** A reaction as message objects show it (upstream's EmojiReaction). */
export type ApiReaction = { emoji_name: string; emoji_code: string; reaction_type: ReactionType; user_id: number };

/** The key of a user's reaction in the map: what upstream keeps unique per message. */
export const reactionKey = (userId: number, reactionType: string, emojiCode: string): string => `${userId}|${reactionType}|${emojiCode}`;

/** The stored reactions in the order they were added (ties, within one millisecond, by key). */
const sortedReactions = (stored: StoredReactions | undefined): StoredReaction[] =>
  Object.entries(stored ?? {})
    .sort(([ka, a], [kb, b]) => a.addedAt - b.addedAt || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, r]) => r);

/**
 * A message's `reactions` for GET /messages and message events, from the message item's
 * `reactions` attribute (undefined when nobody reacted): oldest first, as upstream orders them.
 */
export const apiReactions = (stored: StoredReactions | undefined): ApiReaction[] =>
  sortedReactions(stored).map((r) => ({
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: r.reactionType,
    user_id: r.userId,
  }));

/**
 * The name an existing reaction with this emoji already uses on the message (another user's),
 * which a new vote for the same code takes instead of its own, as upstream does.
 */
export const existingEmojiName = (stored: StoredReactions | undefined, reactionType: string, emojiCode: string): string | undefined =>
  sortedReactions(stored).find((r) => r.reactionType === reactionType && r.emojiCode === emojiCode)?.emojiName;
