// Reading one channel (upstream's zerver/views/streams.py get_stream_backend, get_stream_id,
// get_subscribers_backend, zerver/views/users.py get_subscription_backend): its fields, its id by
// name, its subscribers, whether a user is subscribed, a user's channels. Access rules live in
// lib/access/channels.ts.
import {
  accessChannelByName,
  accessChannelMetadataById,
  canSeeSubscribers,
  hasMetadataAccess,
  type ChannelViewer,
} from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import { type Channel } from '../../models/channel';
import { type Realm } from '../../models/realm';
import { type User } from '../../models/user';
import { accessUserToRead } from '../../access/users';
import { channelApiFields } from '../../models/channel-object';
import * as channelsStore from '../../store/channels';
import * as userGroupsStore from '../../store/user-groups';
import * as usersStore from '../../store/users';
import { nowSeconds } from '../../clock';
import { renderPlainMarkdown } from '../../render';

/** GET /streams/{stream_id}: the channel's fields, for a caller with metadata access ("Invalid channel ID"). */
export const getChannelForUser = async (user: User, channelId: number): Promise<Record<string, unknown>> => {
  const { channel } = await accessChannelMetadataById(user, channelId);
  const groups = await userGroupsStore.listGroupsOfRealm(user.realmId);
  return channelApiFields(channel, groups, nowSeconds(), renderPlainMarkdown);
};

/** GET /get_stream_id: the id of a channel the caller may read, by name ("Invalid channel name '…'"). */
export const getChannelIdByName = async (user: User, name: string): Promise<number> => (await accessChannelByName(user, name)).id;

/** The active users among a channel's subscribers, ascending. */
const activeSubscriberIds = async (channel: Channel): Promise<number[]> => {
  const ids = await channelsStore.listSubscriberIdsOfChannel(channel.id);
  const active = new Set((await usersStore.getMany(channel.realmId, ids)).filter((u) => u.isActive).map((u) => u.id));
  return ids.filter((id) => active.has(id));
};

/**
 * GET /streams/{stream_id}/members: the active subscribers of a channel whose metadata the caller
 * may see ("Invalid channel ID"), when the caller may see its subscribers (upstream's
 * validate_user_access_to_subscribers: "Unable to retrieve subscribers for private channel").
 */
export const getChannelSubscribers = async (user: User, channelId: number): Promise<number[]> => {
  const { channel, viewer } = await accessChannelMetadataById(user, channelId);
  if (!canSeeSubscribers(channel, viewer)) throw new BadRequestError('Unable to retrieve subscribers for private channel');
  return activeSubscriberIds(channel);
};

/**
 * GET /users/{user_id}/subscriptions/{stream_id}: whether a user of the organization (a bot too,
 * as since feature level 458; "No such user", "User is deactivated", "Insufficient permission" for
 * a limited guest) is subscribed to a channel whose metadata the caller may see ("Invalid channel
 * ID"), in upstream's order: the user, then the channel.
 */
export const isUserSubscribed = async (realm: Realm, caller: User, userId: number, channelId: number): Promise<boolean> => {
  const target = await accessUserToRead(realm, caller, userId, { allowBots: true });
  const { channel } = await accessChannelMetadataById(caller, channelId);
  return (await channelsStore.getSubscription(target.id, channel.id))?.active === true;
};

/**
 * GET /users/{user_id}/channels: the ids of the channels a user of the organization (a bot too,
 * as since feature level 458) is subscribed to, of those whose metadata and subscribers the caller
 * may see, ascending (administrators see them all). The user is read as for the subscription
 * status; archived channels are left out.
 */
export const getUserChannelIds = async (realm: Realm, caller: User, userId: number): Promise<number[]> => {
  const target = await accessUserToRead(realm, caller, userId, { allowBots: true });
  const [theirs, channels, own, groups] = await Promise.all([
    channelsStore.listSubscriptionsOfUser(target.id),
    channelsStore.listChannelsOfRealm(realm.id),
    channelsStore.listSubscriptionsOfUser(caller.id),
    RealmGroups.load(realm.id),
  ]);
  const subscribed = new Set(theirs.filter((s) => s.active).map((s) => s.channelId));
  const callerSubscribed = new Set(own.filter((s) => s.active).map((s) => s.channelId));
  return channels
    .filter((channel) => subscribed.has(channel.id) && !channel.isArchived)
    .filter((channel) => {
      const viewer: ChannelViewer = {
        user: caller,
        subscribed: callerSubscribed.has(channel.id),
        inSetting: (v) => groups.isInSetting(v, caller.id),
      };
      return hasMetadataAccess(channel, viewer) && canSeeSubscribers(channel, viewer);
    })
    .map((channel) => channel.id)
    .sort((a, b) => a - b);
};
