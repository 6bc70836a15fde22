// Who may mention whom in a message (upstream's check_stream_wildcard_mention_allowed,
// check_topic_wildcard_mention_allowed and the can_mention_group check of the message's send):
// pure rules over the organization's groups, checked in this order after rendering.
import { ApiError, BadRequestError, ErrorCode } from '../errors';
import { WILDCARD_MENTION_THRESHOLD } from '../models/message-send';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { realmGroupSetting } from '../models/user-group';
import type { RealmGroups } from './user-groups';

/** Whether the sender may mention many users at once (the organization's can_mention_many_users_group). */
const canMentionMany = (realm: Realm, groups: RealmGroups, sender: User): boolean =>
  groups.isInSetting(realmGroupSetting(realm, groups.groups, 'can_mention_many_users_group'), sender.id);

/** A channel wildcard (@**all**, @**everyone**, @**channel**) reaching more than WILDCARD_MENTION_THRESHOLD recipients needs can_mention_many_users_group. */
export const checkCanMentionChannelWildcard = (realm: Realm, groups: RealmGroups, sender: User, recipientCount: number): void => {
  if (recipientCount > WILDCARD_MENTION_THRESHOLD && !canMentionMany(realm, groups, sender)) {
    throw new ApiError('You do not have permission to use channel wildcard mentions in this channel.', {
      code: ErrorCode.STREAM_WILDCARD_MENTION_NOT_ALLOWED,
    });
  }
};

/** A topic wildcard (@**topic**) reaching more than WILDCARD_MENTION_THRESHOLD participants (the sender included) needs can_mention_many_users_group. */
export const checkCanMentionTopicWildcard = (realm: Realm, groups: RealmGroups, sender: User, participantCount: number): void => {
  if (participantCount > WILDCARD_MENTION_THRESHOLD && !canMentionMany(realm, groups, sender)) {
    throw new ApiError('You do not have permission to use topic wildcard mentions in this topic.', {
      code: ErrorCode.TOPIC_WILDCARD_MENTION_NOT_ALLOWED,
    });
  }
};

/** Each mentioned group's can_mention_group, when it has one, must hold the sender ("You are not allowed to mention user group '…'."). */
export const checkCanMentionGroups = (groups: RealmGroups, sender: User, groupIds: number[]): void => {
  for (const groupId of groupIds) {
    const group = groups.byId.get(groupId)!;
    const setting = group.groupSettings.can_mention_group;
    if (setting !== undefined && !groups.isInSetting(setting, sender.id)) {
      throw new BadRequestError(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
};
