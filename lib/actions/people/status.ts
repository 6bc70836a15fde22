import { checkEmojiRequest, emojiNameToCode } from '../../emoji';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { toApiUserStatus } from '../../models/user-status';
import { accessUserForAdmin, accessUserToRead } from '../../access/users';
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

type StatusEmoji = { name: string; code: string; type: string };

/** Upstream's 60-character limit, checked with the parameters, before anything else. */
const checkStatusTextLength = (statusText: string | undefined): void => {
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw new BadRequestError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
};

/**
 * Upstream's check_update_user_status after the text's length: that something was sent, the emoji
 * (an empty name clears it; a name without code or type is looked up; then name, code and type
 * must match; a code or type without a name is refused). Returns the emoji to store, if any.
 */
const checkStatusRequest = async (realmId: number, req: UserStatusRequest): Promise<StatusEmoji | undefined> => {
  if (req.away === undefined && req.statusText === undefined && req.emojiName === undefined) {
    throw new BadRequestError('Client did not pass any new values.');
  }
  if (req.emojiName === '') return { name: '', code: '', type: 'unicode_emoji' };
  if (req.emojiName === undefined) {
    if (req.emojiCode !== undefined || req.reactionType !== undefined)
      throw new BadRequestError('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    return undefined;
  }
  let code = req.emojiCode;
  let type = req.reactionType;
  // The organization's custom emoji are read only when a name is looked up or a custom emoji named.
  const custom = lazyRealmEmoji(realmId);
  if (code === undefined || type === undefined) ({ code, type } = emojiNameToCode(req.emojiName, await custom()));
  checkEmojiRequest(req.emojiName, code, type, type === 'realm_emoji' ? await custom() : []);
  return { name: req.emojiName, code, type };
};

/**
 * Upstream's do_update_user_status: sets `away` as the inverse of presence_enabled (with its
 * user_settings event), stores the text and emoji sent, and sends one `user_status` event with the
 * fields sent to the organization.
 */
const doUpdateUserStatus = async (target: User, req: UserStatusRequest, emoji: StatusEmoji | undefined): Promise<void> => {
  if (req.away !== undefined) await doChangeUserSettings(target, { presence_enabled: !req.away });
  await userStatusStore.updateUserStatus(target.realmId, target.id, {
    statusText: req.statusText,
    ...(emoji ? { emojiName: emoji.name, emojiCode: emoji.code, reactionType: emoji.type } : {}),
  });
  await sendEvent(
    target.realmId,
    {
      type: 'user_status',
      user_id: target.id,
      ...(req.away !== undefined ? { away: req.away } : {}),
      ...(req.statusText !== undefined ? { status_text: req.statusText } : {}),
      ...(emoji ? { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type } : {}),
    },
    'realm',
  );
};

/**
 * POST /users/me/status. Checks, in upstream's order: the text's length, that something was
 * sent, the emoji (checkStatusRequest). Then writes and emits as doUpdateUserStatus.
 */
export const checkUpdateUserStatus = async (user: User, req: UserStatusRequest): Promise<void> => {
  checkStatusTextLength(req.statusText);
  await doUpdateUserStatus(user, req, await checkStatusRequest(user.realmId, req));
};

/**
 * POST /users/{user_id}/status, as upstream's update_user_status_admin: an administrator sets
 * another user's status text and emoji (no `away`). Checks, in order: the text's length, the user
 * through access_user_by_id for an administrator with bots refused ("No such user", "User is
 * deactivated", "Insufficient permission" for a caller who may not administer them), then what
 * POST /users/me/status checks. Writes the target's status and sends its `user_status` event to
 * the organization.
 */
export const updateStatusForUser = async (caller: User, userId: number, req: Omit<UserStatusRequest, 'away'>): Promise<void> => {
  checkStatusTextLength(req.statusText);
  const target = await accessUserForAdmin(caller, userId);
  const request = { ...req, away: undefined };
  await doUpdateUserStatus(target, request, await checkStatusRequest(target.realmId, request));
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
