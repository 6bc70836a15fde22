// Who may edit, move and delete a message, and until when: upstream's validate_user_can_edit_message,
// the topic-move checks of check_update_message (zerver/actions/message_edit.py) and
// validate_can_delete_message (zerver/views/message_edit.py). Pure functions of the organization,
// its groups, the channel, the user and the message (the caller loads them and passes the clock),
// but checkChangeAllWithinLimit, which reads the messages of the topic it is given.
import { ApiError, BadRequestError, type ErrorCode } from '../errors';
import type { Channel } from '../models/channel';
import type { Message } from '../models/message';
import { EDIT_LIMIT_GRACE_SECONDS, messageEditSettings, withinTimeLimit } from '../models/message-edit';
import type { Realm } from '../models/realm';
import { realmGroupSetting } from '../models/user-group';
import { isAdmin, isModerator, type User } from '../models/user';
import * as messagesStore from '../store/messages';
import type { RealmGroups } from './user-groups';

/**
 * Whether upstream lets role:everyone hold the setting (so guests may hold it); where it does not,
 * guests never have the permission. Organization and channel settings of this module.
 */
const ALLOWS_EVERYONE: Record<string, boolean> = {
  can_delete_any_message_group: false,
  can_delete_own_message_group: true,
  can_move_messages_between_channels_group: false,
  can_move_messages_between_topics_group: true,
  can_move_messages_out_of_channel_group: false,
  can_move_messages_within_channel_group: true,
  can_resolve_topics_group: true,
  can_administer_channel_group: false,
};

const inRealmSetting = (realm: Realm, groups: RealmGroups, user: User, wireName: string): boolean =>
  groups.hasPermission(user, realmGroupSetting(realm, groups.groups, wireName), ALLOWS_EVERYONE[wireName]);

const inChannelSetting = (channel: Channel | null, groups: RealmGroups, user: User, name: string): boolean =>
  channel !== null && groups.hasPermission(user, channel.groupSettings[name], ALLOWS_EVERYONE[name]);

/**
 * Upstream's validate_user_can_edit_message for a content edit: the organization allows editing
 * ("Your organization has turned off message editing"), the user sent the message (nobody, not
 * even an administrator, edits someone else's words: "You don't have permission to edit this
 * message"), and the edit limit plus `graceSeconds` (an edit's 20; typing in an edit's 0) has not
 * passed since it was sent.
 */
export const checkCanEditContent = (
  realm: Realm,
  user: User,
  message: Message,
  now: number,
  graceSeconds = EDIT_LIMIT_GRACE_SECONDS,
): void => {
  const settings = messageEditSettings(realm);
  if (!settings.allowMessageEditing) throw new BadRequestError('Your organization has turned off message editing');
  if (message.senderId !== user.id) throw new BadRequestError("You don't have permission to edit this message");
  if (!withinTimeLimit(message.dateSent, now, settings.messageContentEditLimitSeconds, graceSeconds)) {
    throw new BadRequestError('The time limit for editing this message has passed');
  }
};

/**
 * Upstream's topic-change permission within a channel. A resolve or unresolve needs the
 * organization's or the channel's can_resolve_topics_group, with no time limit. Any other topic
 * change needs the organization's can_move_messages_between_topics_group, the channel's
 * can_move_messages_within_channel_group, the channel's administrators or the organization's;
 * then, below moderators, the move limit plus 20 seconds.
 */
export const checkCanChangeTopic = (
  realm: Realm,
  groups: RealmGroups,
  user: User,
  channel: Channel,
  message: Message,
  opts: { resolveToggle: boolean; now: number },
): void => {
  if (opts.resolveToggle) {
    if (
      inRealmSetting(realm, groups, user, 'can_resolve_topics_group') ||
      inChannelSetting(channel, groups, user, 'can_resolve_topics_group')
    )
      return;
    throw new BadRequestError("You don't have permission to resolve topics in this channel.");
  }
  const allowed =
    inRealmSetting(realm, groups, user, 'can_move_messages_between_topics_group') ||
    inChannelSetting(channel, groups, user, 'can_move_messages_within_channel_group') ||
    inChannelSetting(channel, groups, user, 'can_administer_channel_group') ||
    isAdmin(user);
  if (!allowed) throw new BadRequestError("You don't have permission to edit this message");
  if (isModerator(user)) return;
  const limit = messageEditSettings(realm).moveMessagesWithinStreamLimitSeconds;
  if (!withinTimeLimit(message.dateSent, opts.now, limit, EDIT_LIMIT_GRACE_SECONDS)) {
    throw new BadRequestError("The time limit for editing this message's topic has passed.");
  }
};

/**
 * Upstream's channel-change checks of check_update_message, in its order: moving out of the
 * channel needs an organization administrator, the organization's
 * can_move_messages_between_channels_group, the channel's administrators or its
 * can_move_messages_out_of_channel_group ("You don't have permission to move this message"); then
 * the destination's can_send_message_group ("You do not have permission to post in this
 * channel."; a bot by its owner); then, below moderators, the organization's limit for moving
 * between channels plus 20 seconds.
 */
export const checkCanMoveToChannel = (
  realm: Realm,
  groups: RealmGroups,
  user: User,
  source: Channel,
  destination: Channel,
  message: Message,
  now: number,
): void => {
  const allowed =
    isAdmin(user) ||
    inRealmSetting(realm, groups, user, 'can_move_messages_between_channels_group') ||
    inChannelSetting(source, groups, user, 'can_administer_channel_group') ||
    inChannelSetting(source, groups, user, 'can_move_messages_out_of_channel_group');
  if (!allowed) throw new BadRequestError("You don't have permission to move this message");
  const poster = user.isBot && user.botOwnerId !== null ? user.botOwnerId : user.id;
  if (!groups.isInSetting(destination.groupSettings.can_send_message_group, poster)) {
    throw new BadRequestError('You do not have permission to post in this channel.');
  }
  if (isModerator(user)) return;
  const limit = messageEditSettings(realm).moveMessagesBetweenStreamsLimitSeconds;
  if (!withinTimeLimit(message.dateSent, now, limit, EDIT_LIMIT_GRACE_SECONDS)) {
    throw new BadRequestError("The time limit for editing this message's channel has passed");
  }
};

/**
 * Whether a non-moderator may still move a message sent at `dateSent` (change_all's per-message
 * check): within the topic-move limit when the topic changes, the channel-move limit when the
 * channel changes, the stricter of the two when both do.
 */
const withinMoveLimits = (
  realm: Realm,
  user: User,
  dateSent: number,
  now: number,
  moves: { topic: boolean; channel: boolean },
): boolean => {
  if (isModerator(user)) return true;
  const settings = messageEditSettings(realm);
  return (
    (!moves.topic || withinTimeLimit(dateSent, now, settings.moveMessagesWithinStreamLimitSeconds, EDIT_LIMIT_GRACE_SECONDS)) &&
    (!moves.channel || withinTimeLimit(dateSent, now, settings.moveMessagesBetweenStreamsLimitSeconds, EDIT_LIMIT_GRACE_SECONDS))
  );
};

/**
 * Upstream's validate_can_delete_message, in its order: the organization's or the channel's
 * can_delete_any_message_group may delete anything at any time; otherwise the user must be the
 * sender or the sender's bot owner, be in the organization's can_delete_own_message_group (or,
 * for a channel message, the channel's), and the delete limit (no grace) must not have passed.
 * `channel` is null for a direct message; `sender` is the message's sender.
 */
export const checkCanDeleteMessage = (
  realm: Realm,
  groups: RealmGroups,
  user: User,
  message: Message,
  opts: { channel: Channel | null; sender: User | undefined; now: number },
): void => {
  if (inRealmSetting(realm, groups, user, 'can_delete_any_message_group')) return;
  if (inChannelSetting(opts.channel, groups, user, 'can_delete_any_message_group')) return;
  const refused = new BadRequestError("You don't have permission to delete this message");
  const ownOrOwnBot = message.senderId === user.id || (opts.sender?.isBot === true && opts.sender.botOwnerId === user.id);
  if (!ownOrOwnBot) throw refused;
  if (
    !inRealmSetting(realm, groups, user, 'can_delete_own_message_group') &&
    !inChannelSetting(opts.channel, groups, user, 'can_delete_own_message_group')
  ) {
    throw refused;
  }
  const limit = messageEditSettings(realm).messageContentDeleteLimitSeconds;
  if (!withinTimeLimit(message.dateSent, opts.now, limit, 0))
    throw new BadRequestError('The time limit for deleting this message has passed');
};

/**
 * Upstream's change_all check for a non-moderator: every message of the topic must be within the
 * move limits (withinMoveLimits), else "You only have permission to move the {n}/{total} most
 * recent messages in this topic." with the first id that may move.
 */
export const checkChangeAllWithinLimit = async (
  realm: Realm,
  user: User,
  ids: number[],
  now: number,
  moves: { topic: boolean; channel: boolean },
): Promise<void> => {
  // No limit applies to this user (a moderator, or no limit set) when even the oldest possible message
  // may move: then no message needs reading (a large topic's request stays bounded).
  if (withinMoveLimits(realm, user, 0, now, moves)) return;
  const messages = await messagesStore.getMessagesByIds(realm.id, ids);
  const allowed = messages.filter((m) => withinMoveLimits(realm, user, m.dateSent, now, moves)).sort((a, b) => a.id - b.id);
  if (allowed.length === messages.length) return;
  throw new ApiError(`You only have permission to move the ${allowed.length}/${messages.length} most recent messages in this topic.`, {
    code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED' as ErrorCode,
    data: {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: messages.length,
      total_messages_allowed_to_move: allowed.length,
    },
  });
};
