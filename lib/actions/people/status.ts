import { checkEmojiRequest, emojiNameToCode } from '../../emoji';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { toApiUserStatus } from '../../models/user-status';
import { accessUserToRead } from '../../access/users';
import * as userStatusStore from '../../store/user-status';
import { lazyRealmEmoji } from '../organization/emoji';
import { doChangeUserSettings } from './settings';

export type UserStatusRequest = {
  away: boolean | undefined;
  /** Whitespace already stripped. */
  statusText: string | undefined;
  emojiName: string | undefined;
  emojiCode: string | undefined;
  reactionType: string | undefined;
};

const MAX_STATUS_TEXT_LENGTH = 60;

/**
 * POST /users/me/status. Checks, in upstream's order: the text's length, that something was
 * sent, the emoji (an empty name clears it; a name without code or type is looked up; then name,
 * code and type must match). Then sets `away` as the inverse of presence_enabled (with its
 * user_settings event), stores the text and emoji sent, and sends one `user_status` event with
 * the fields sent to the organization.
 */
export const checkUpdateUserStatus = async (user: User, req: UserStatusRequest): Promise<void> => {
  if (req.statusText !== undefined && [...req.statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw new BadRequestError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  if (req.away === undefined && req.statusText === undefined && req.emojiName === undefined) {
    throw new BadRequestError('Client did not pass any new values.');
  }
  let emoji: { name: string; code: string; type: string } | undefined;
  if (req.emojiName === '') emoji = { name: '', code: '', type: 'unicode_emoji' };
  else if (req.emojiName !== undefined) {
    let code = req.emojiCode;
    let type = req.reactionType;
    // The organization's custom emoji are read only when a name is looked up or a custom emoji named.
    const custom = lazyRealmEmoji(user.realmId);
    if (code === undefined || type === undefined) ({ code, type } = emojiNameToCode(req.emojiName, await custom()));
    checkEmojiRequest(req.emojiName, code, type, type === 'realm_emoji' ? await custom() : []);
    emoji = { name: req.emojiName, code, type };
  }

  if (req.away !== undefined) await doChangeUserSettings(user, { presence_enabled: !req.away });
  await userStatusStore.updateUserStatus(user.realmId, user.id, {
    statusText: req.statusText,
    ...(emoji ? { emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.type } : {}),
  });
  await sendEvent(
    user.realmId,
    {
      type: 'user_status',
      user_id: user.id,
      ...(req.away !== undefined ? { away: req.away } : {}),
      ...(req.statusText !== undefined ? { status_text: req.statusText } : {}),
      ...(emoji ? { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type } : {}),
    },
    'realm',
  );
};

/**
 * GET /users/{user_id}/status: the status a user of the organization set (upstream's
 * get_user_status, read through access_user_by_id without for_admin: "No such user" for a bot or
 * someone elsewhere, "User is deactivated", "Insufficient permission" for a limited guest); `{}`
 * for one who never set one. `away` is the inverse of presence_enabled, as register's user_status.
 */
export const getUserStatus = async (realm: Realm, caller: User, userId: number): Promise<Record<string, unknown>> => {
  const target = await accessUserToRead(realm, caller, userId);
  const status = await userStatusStore.getUserStatus(realm.id, target.id);
  return status ? toApiUserStatus(status, target.presenceEnabled) : {};
};
