// Who may see a channel and read its messages: upstream's rules (zerver/lib/streams.py
// user_has_content_access, user_has_metadata_access, access_stream_common; zerver/lib/message.py
// has_message_access), in one place for every caller. The rules are pure functions of the channel,
// the user, the user's subscription and the user's group memberships; the async helpers load
// what the rules need, reading the organization's groups only when a rule consults them.
import { BadRequestError } from '../errors';
import { type Channel, type Subscription } from '../models/channel';
import type { Audience } from '../models/event';
import type { GroupSettingValue, Realm } from '../models/realm';
import { isAdmin, isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as usersStore from '../store/users';
import { RealmGroups } from './user-groups';
import { realmGroupSetting } from '../models/user-group';

/** What the rules know about the user besides the user: subscribed now, and group membership. */
export type ChannelViewer = {
  user: User;
  /** An active subscription to the channel. */
  subscribed: boolean;
  /** Whether the user is in a group-setting value (a group, recursively, or an anonymous group). */
  inSetting: (value: GroupSettingValue | undefined) => boolean;
};

/** Channel settings whose members may read a private channel without being subscribed. */
const CONTENT_ACCESS_SETTINGS = ['can_add_subscribers_group', 'can_subscribe_group'] as const;
/** ... and those whose members may see its metadata (name, description, subscribers). */
const METADATA_ACCESS_SETTINGS = ['can_administer_channel_group', ...CONTENT_ACCESS_SETTINGS] as const;

const inAnySetting = (channel: Channel, viewer: ChannelViewer, settings: readonly string[]): boolean =>
  settings.some((setting) => viewer.inSetting(channel.groupSettings[setting]));

/**
 * Upstream's user_has_content_access: web-public channels (guests included), subscribed ones,
 * public ones for everyone but guests, and private ones for members of the channel's
 * can_add_subscribers_group or can_subscribe_group. Archived channels are judged the same way.
 */
export const hasContentAccess = (channel: Channel, viewer: ChannelViewer): boolean => {
  if (channel.isWebPublic || viewer.subscribed) return true;
  if (isGuest(viewer.user)) return false;
  if (!channel.inviteOnly) return true;
  return inAnySetting(channel, viewer, CONTENT_ACCESS_SETTINGS);
};

/**
 * Upstream's user_has_metadata_access: content access, or (never for guests) an administrator of
 * the organization or a member of the channel's can_administer_channel_group.
 */
export const hasMetadataAccess = (channel: Channel, viewer: ChannelViewer): boolean => {
  if (hasContentAccess(channel, viewer)) return true;
  if (isGuest(viewer.user)) return false;
  return isAdmin(viewer.user) || inAnySetting(channel, viewer, METADATA_ACCESS_SETTINGS);
};

/**
 * Upstream's validate_user_access_to_subscribers: web-public channels; for guests only channels
 * they are subscribed to; never a public channel for a user who cannot access public channels;
 * every channel for administrators and metadata groups; else public or subscribed ones.
 */
export const canSeeSubscribers = (channel: Channel, viewer: ChannelViewer): boolean => {
  if (channel.isWebPublic) return true;
  if (isGuest(viewer.user)) return viewer.subscribed;
  if (isAdmin(viewer.user) || inAnySetting(channel, viewer, METADATA_ACCESS_SETTINGS)) return true;
  return !channel.inviteOnly || viewer.subscribed;
};

/**
 * Who may see a channel's subscribers once `subscriberIds` are subscribed (canSeeSubscribers; for
 * every channel the same users as hasMetadataAccess, so this is also who sees its metadata), without
 * reading the organization's users: for a web-public channel everyone; for a public one everyone
 * but the guests who are not subscribed (the organization's role groups say who the guests are);
 * for a private one the candidates (subscribers, administrators, members of the channel's
 * metadata groups) judged one by one, their users read by id. Deactivated users are left to the
 * caller: they have no queue to deliver to.
 */
export const subscriberViewers = async (
  channel: Channel,
  subscriberIds: ReadonlySet<number>,
  groups: RealmGroups,
): Promise<Exclude<Audience, 'realm'>> => {
  if (channel.isWebPublic) return { everyoneBut: [] };
  if (!channel.inviteOnly) {
    const nonGuests = groups.membersOf(groups.systemGroup('role:members').id);
    const guests = [...groups.membersOf(groups.systemGroup('role:everyone').id)].filter((id) => !nonGuests.has(id));
    return { everyoneBut: guests.filter((id) => !subscriberIds.has(id)) };
  }
  const candidates = new Set([...subscriberIds, ...groups.membersOf(groups.systemGroup('role:administrators').id)]);
  for (const setting of METADATA_ACCESS_SETTINGS) for (const id of groups.membersOf(channel.groupSettings[setting])) candidates.add(id);
  const users = await usersStore.getMany(channel.realmId, [...candidates]);
  const viewers = users.filter(
    (u) =>
      u.isActive &&
      canSeeSubscribers(channel, { user: u, subscribed: subscriberIds.has(u.id), inSetting: (v) => groups.isInSetting(v, u.id) }),
  );
  return { users: viewers.map((u) => u.id).sort((a, b) => a - b) };
};

/**
 * Upstream's has_message_access for a channel message: a public channel for non-guests; with
 * history shared with subscribers, content access; with protected history, the user must have
 * received the message and still have content access. Archived channels stay readable.
 */
export const canReadChannelMessage = (channel: Channel, viewer: ChannelViewer, received: boolean): boolean => {
  if (!channel.inviteOnly && !isGuest(viewer.user)) return true;
  if (!channel.historyPublicToSubscribers && !received) return false;
  return hasContentAccess(channel, viewer);
};

/**
 * The viewer of one channel, with the user's subscription row as read (active or not; undefined
 * when never subscribed) for a caller that needs its settings: reads the subscription, and the
 * organization's groups only when the channel is private, the user is not subscribed and not a
 * guest (the only case where a rule above consults a group).
 */
export const loadChannelViewer = async (
  user: User,
  channel: Channel,
): Promise<ChannelViewer & { subscription: Subscription | undefined }> => {
  const subscription = await channelsStore.getSubscription(user.id, channel.id);
  const subscribed = subscription?.active === true;
  if (subscribed || isGuest(user) || !channel.inviteOnly || channel.isWebPublic)
    return { user, subscribed, subscription, inSetting: () => false };
  const groups = await RealmGroups.load(user.realmId);
  return { user, subscribed, subscription, inSetting: (value) => groups.isInSetting(value, user.id) };
};

/**
 * Upstream's access_stream_by_id: a channel of the user's organization that is not archived and
 * whose content the user may access. Anything else (another organization's channel included)
 * fails with the caller's message, so that a channel one may not see looks missing.
 */
export const accessChannelById = async (
  user: User,
  channelId: number,
  message: string,
  opts: { allowArchived?: boolean } = {},
): Promise<Channel> => (await accessChannelWithViewer(user, channelId, message, opts)).channel;

/**
 * accessChannelById, also returning the viewer it judged (its subscription), for a further check.
 * `allowArchived`: an archived channel is accessed like any other (upstream's
 * require_active_channel=False, for reads such as a channel's topics).
 */
export const accessChannelWithViewer = async (
  user: User,
  channelId: number,
  message: string,
  opts: { allowArchived?: boolean } = {},
): Promise<{ channel: Channel; viewer: ChannelViewer }> => {
  const channel = await channelsStore.getChannel(user.realmId, channelId);
  if (!channel || (channel.isArchived && !opts.allowArchived)) throw new BadRequestError(message);
  const viewer = await loadChannelViewer(user, channel);
  if (!hasContentAccess(channel, viewer)) throw new BadRequestError(message);
  return { channel, viewer };
};

/**
 * Upstream's access_stream_for_send_message, for a user (not a forwarded or cross-realm send), in
 * its order: the channel's can_send_message_group ("You do not have permission to post in this
 * channel."; a bot is judged by its owner's membership), then the channel not archived, and
 * web-public, public to a non-guest, subscribed, or, with shared history, a non-guest in its
 * can_subscribe_group or can_add_subscribers_group ("Not authorized to send to channel
 * '{name}'"). Reads the organization's groups (one query).
 */
export const checkCanPostToChannel = async (user: User, channel: Channel, subscribed: boolean, loaded?: RealmGroups): Promise<void> => {
  const groups = loaded ?? (await RealmGroups.load(user.realmId));
  const poster = user.isBot && user.botOwnerId !== null ? user.botOwnerId : user.id;
  if (!groups.isInSetting(channel.groupSettings.can_send_message_group, poster)) {
    throw new BadRequestError('You do not have permission to post in this channel.');
  }
  const refused = new BadRequestError(`Not authorized to send to channel '${channel.name}'`);
  if (channel.isArchived) throw refused;
  if (channel.isWebPublic || subscribed) return;
  if (!channel.inviteOnly && !isGuest(user)) return;
  const viewer: ChannelViewer = { user, subscribed, inSetting: (value) => groups.isInSetting(value, user.id) };
  if (!isGuest(user) && channel.historyPublicToSubscribers && inAnySetting(channel, viewer, CONTENT_ACCESS_SETTINGS)) return;
  throw refused;
};

/**
 * Upstream's access_stream_by_id with require_content_access=False: a channel of the user's
 * organization, not archived, whose metadata the user may see (content access, or an
 * administrator or channel administrator); anything else fails with "Invalid channel ID".
 */
export const accessChannelMetadataById = async (user: User, channelId: number): Promise<{ channel: Channel; viewer: ChannelViewer }> => {
  const channel = await channelsStore.getChannel(user.realmId, channelId);
  if (!channel || channel.isArchived) throw new BadRequestError('Invalid channel ID');
  const subscribed = (await channelsStore.getSubscription(user.id, channel.id))?.active === true;
  const groups = await RealmGroups.load(user.realmId);
  const viewer: ChannelViewer = { user, subscribed, inSetting: (value) => groups.isInSetting(value, user.id) };
  if (!hasMetadataAccess(channel, viewer)) throw new BadRequestError('Invalid channel ID');
  return { channel, viewer };
};

/**
 * Upstream's access_stream_by_name: a non-archived channel of the user's organization named so
 * (case-insensitively) whose content the user may access; else "Invalid channel name '{name}'".
 */
export const accessChannelByName = async (user: User, name: string): Promise<Channel> => {
  const refused = new BadRequestError(`Invalid channel name '${name}'`);
  const channels = await channelsStore.listChannelsOfRealm(user.realmId);
  const channel = channels.find((c) => !c.isArchived && c.name.toLowerCase() === name.toLowerCase());
  if (!channel) throw refused;
  const viewer = await loadChannelViewer(user, channel);
  if (!hasContentAccess(channel, viewer)) throw refused;
  return channel;
};

/**
 * Upstream's access_stream_to_remove_visibility_policy_by_id: removing one's own topic policy
 * needs only a channel of the user's organization (archived, inaccessible or left ones included),
 * so that a policy set while the user had access can always be removed; else `message`.
 */
export const accessChannelToRemoveVisibilityPolicyById = async (user: User, channelId: number, message: string): Promise<Channel> => {
  const channel = await channelsStore.getChannel(user.realmId, channelId);
  if (!channel) throw new BadRequestError(message);
  return channel;
};

/** The same by name (case-insensitively, surrounding whitespace ignored, as upstream's get_stream). */
export const accessChannelToRemoveVisibilityPolicyByName = async (user: User, name: string, message: string): Promise<Channel> => {
  const wanted = name.trim().toLowerCase();
  const channel = (await channelsStore.listChannelsOfRealm(user.realmId)).find((c) => c.name.toLowerCase() === wanted);
  if (!channel) throw new BadRequestError(message);
  return channel;
};

/**
 * Upstream's can_administer_accessible_channel (with its shortcut for organization
 * administrators): an administrator, or a non-guest in the channel's can_administer_channel_group
 * (a setting that never includes role:everyone, so guests never hold it).
 */
const canAdministerChannel = (channel: Channel, viewer: ChannelViewer): boolean =>
  isAdmin(viewer.user) || (!isGuest(viewer.user) && viewer.inSetting(channel.groupSettings.can_administer_channel_group));

/** A channel, its caller as a viewer, and the organization's groups, as an administration check read them. */
export type AdministeredChannel = { channel: Channel; viewer: ChannelViewer; groups: RealmGroups };

/**
 * Upstream's access_stream_for_delete_or_update_requiring_metadata_access: a channel of the
 * user's organization (archived ones included) that the user may administer (canAdministerChannel).
 * Someone who may read the channel but not administer it is told so ("You do not have permission
 * to administer this channel."); to anyone else it looks missing ("Invalid channel ID"). Reads
 * the channel (consistently: a change is decided on it), the subscription and the groups.
 */
export const accessChannelForAdministration = async (user: User, channelId: number): Promise<AdministeredChannel> => {
  const [channel, subscription, groups] = await Promise.all([
    channelsStore.getChannel(user.realmId, channelId, { consistent: true }),
    channelsStore.getSubscription(user.id, channelId),
    RealmGroups.load(user.realmId, { consistent: true }),
  ]);
  if (!channel) throw new BadRequestError('Invalid channel ID');
  const viewer: ChannelViewer = { user, subscribed: subscription?.active === true, inSetting: (v) => groups.isInSetting(v, user.id) };
  if (canAdministerChannel(channel, viewer)) return { channel, viewer, groups };
  if (hasContentAccess(channel, viewer)) throw new BadRequestError('You do not have permission to administer this channel.');
  throw new BadRequestError('Invalid channel ID');
};

/**
 * Who may see a channel's metadata now (upstream's can_access_stream_metadata_user_ids), from
 * its subscriber index: subscriberViewers.
 */
export const channelMetadataViewers = async (channel: Channel, groups: RealmGroups): Promise<Exclude<Audience, 'realm'>> =>
  subscriberViewers(channel, new Set(await channelsStore.listSubscriberIdsOfChannel(channel.id)), groups);

/** Upstream's can_subscribe check for oneself on an existing channel (filter_stream_authorization). */
export const maySubscribeSelf = (channel: Channel, viewer: ChannelViewer): boolean => {
  if (viewer.subscribed || channel.isWebPublic) return true;
  if (isGuest(viewer.user)) return false;
  if (!channel.inviteOnly) return true;
  return viewer.inSetting(channel.groupSettings.can_subscribe_group) || viewer.inSetting(channel.groupSettings.can_add_subscribers_group);
};

/** Whether the caller may subscribe other users to a channel: the organization's or the channel's permission. */
export const mayAddSubscribers = (realm: Realm, groups: RealmGroups, user: User, channel: Channel | undefined): boolean => {
  if (isGuest(user)) return false;
  if (channel === undefined) return true; // the creator of a new channel
  if (channel.inviteOnly && !groups.isInSetting(channel.groupSettings.can_add_subscribers_group, user.id) && !isAdmin(user)) {
    // A private channel's subscribers are added only by its own permission groups or administrators.
    return groups.isInSetting(channel.groupSettings.can_administer_channel_group, user.id);
  }
  return (
    groups.hasPermission(user, realmGroupSetting(realm, groups.groups, 'can_add_subscribers_group'), false) ||
    groups.isInSetting(channel.groupSettings.can_add_subscribers_group, user.id) ||
    groups.isInSetting(channel.groupSettings.can_administer_channel_group, user.id)
  );
};
