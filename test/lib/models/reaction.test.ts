// The stored reactions of a message as message objects list them.
import { apiReactions, existingEmojiName, reactionKey, type StoredReaction } from '../../../lib/models/reaction';

const stored = (
  userId: number,
  emojiName: string,
  emojiCode: string,
  addedAt: number,
  reactionType: StoredReaction['reactionType'] = 'unicode_emoji',
) => ({
  [reactionKey(userId, reactionType, emojiCode)]: { userId, emojiName, emojiCode, reactionType, addedAt },
});

describe('apiReactions', () => {
  it('lists nothing for a message nobody reacted to', () => {
    expect(apiReactions(undefined)).toEqual([]);
    expect(apiReactions({})).toEqual([]);
  });

  it('lists reactions oldest first, in the API shape', () => {
    const reactions = {
      ...stored(11, 'octopus', '1f419', 20),
      ...stored(10, 'tada', '1f389', 10),
      ...stored(10, 'zulip', 'zulip', 30, 'zulip_extra_emoji'),
    };
    expect(apiReactions(reactions)).toEqual([
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 10 },
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 11 },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: 10 },
    ]);
  });

  it('orders reactions added in the same millisecond the same way every time', () => {
    const a = { ...stored(12, 'octopus', '1f419', 5), ...stored(10, 'octopus', '1f419', 5) };
    const b = { ...stored(10, 'octopus', '1f419', 5), ...stored(12, 'octopus', '1f419', 5) };
    expect(apiReactions(a)).toEqual(apiReactions(b));
  });
});

describe('existingEmojiName', () => {
  it("gives the name of the oldest reaction with that type and code, and nothing for another type's", () => {
    const reactions = { ...stored(10, '+1', '1f44d', 1), ...stored(11, 'thumbs_up', '1f44d', 2) };
    expect(existingEmojiName(reactions, 'unicode_emoji', '1f44d')).toBe('+1');
    expect(existingEmojiName(reactions, 'realm_emoji', '1f44d')).toBeUndefined();
  });
});
