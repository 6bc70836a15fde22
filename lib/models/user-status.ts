// A user's status: a short text and an emoji (upstream's UserStatus). `away` is not stored here:
// since feature level 148 it is the inverse of the user's presence_enabled setting.
export type UserStatus = {
  realmId: number;
  userId: number;
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
};

/** Register's user_status entry: only what differs from "no status" (upstream's format_user_status). */
export const toApiUserStatus = (status: UserStatus, presenceEnabled: boolean): Record<string, unknown> => ({
  ...(presenceEnabled ? {} : { away: true }),
  ...(status.statusText ? { status_text: status.statusText } : {}),
  ...(status.emojiName ? { emoji_name: status.emojiName, emoji_code: status.emojiCode, reaction_type: status.reactionType } : {}),
});
