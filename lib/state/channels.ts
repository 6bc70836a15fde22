// Register state about channels: "subscription" (subscriptions, unsubscribed, never_subscribed),
// "stream" (every channel the caller can see) and "channel_folders". The organization's channels
// are one query; subscriber counts, first message ids and activity are kept on the channel item,
// so only an explicit include_subscribers reads subscriber lists (one index query per channel).
import { canSeeSubscribers, hasContentAccess, hasMetadataAccess, type ChannelViewer } from '../access/channels';
import { mapLimited } from '../concurrency';
import { nowSeconds } from '../clock';
import { renderPlainMarkdown } from '../render';
import { STREAM_ASSIGNMENT_COLORS, type Channel, type ChannelFolder } from '../models/channel';
import { sortFoldersForDisplay, toApiChannelFolder } from '../models/channel-folder';
import { channelApiFields, subscriptionFields } from '../models/channel-object';
import { isGuest, type User } from '../models/user';
import * as channelFoldersStore from '../store/channel-folders';
import * as channelsStore from '../store/channels';
import * as presenceStore from '../store/presence';
import { once, ownGroupIds, ownSubscriptions, realmChannels, realmGroups, realmUsers } from './context';
import { inGroupSetting } from '../models/user-group';
import type { StateBuilder, StateContext } from './registry';

/** include_subscribers=partial lists only bots and recent users for channels this large. */
const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 250;
/** "Recently active" users for partial subscriber lists: connected in the last 14 days. */
const PARTIAL_SUBSCRIBERS_ACTIVE_DAYS = 14;
/** Subscriber lists read at once when include_subscribers asks for them. */
const SUBSCRIBER_READS_IN_FLIGHT = 16;

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The caller as a viewer of one channel, from the memberships register already read. */
const viewerOf = (user: User, subscribed: boolean, groupIds: Set<number>): ChannelViewer => ({
  user,
  subscribed,
  inSetting: (value) => inGroupSetting(value, user.id, groupIds),
});

/** Users whose subscriptions a partial list keeps: bots and users connected in the last 14 days. */
const partialSubscriberFilter = (ctx: StateContext): Promise<(userId: number) => boolean> =>
  once(ctx, 'partialSubscriberFilter', async () => {
    const since = nowSeconds() - PARTIAL_SUBSCRIBERS_ACTIVE_DAYS * 86400;
    const [users, recent] = await Promise.all([realmUsers(ctx), presenceStore.listConnectedSince(ctx.realm.id, since)]);
    const keep = new Set([...users.filter((u) => u.isBot).map((u) => u.id), ...recent.map((p) => p.userId)]);
    return (userId: number) => keep.has(userId);
  });

/** Adds subscribers / partial_subscribers to channel entries, as include_subscribers asks. */
const addSubscribers = async (
  ctx: StateContext,
  user: User,
  entries: { channel: Channel; dict: Record<string, unknown> }[],
  subscribedIds: Set<number>,
): Promise<void> => {
  const mode = ctx.options.includeSubscribers;
  if (mode === 'false') return;
  const groupIds = await ownGroupIds(ctx);
  const partialKeep = mode === 'partial' ? await partialSubscriberFilter(ctx) : undefined;
  await mapLimited(entries, SUBSCRIBER_READS_IN_FLIGHT, async ({ channel, dict }) => {
    const partial = partialKeep !== undefined && (channel.subscriberCount ?? 0) >= MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE;
    const ids = canSeeSubscribers(channel, viewerOf(user, subscribedIds.has(channel.id), groupIds))
      ? await channelsStore.listSubscriberIdsOfChannel(channel.id)
      : [];
    if (partial) dict.partial_subscribers = ids.filter(partialKeep);
    else dict.subscribers = ids;
  });
};

/** The three subscription lists of an authenticated caller. */
const subscriptionLists = async (ctx: StateContext, user: User): Promise<Record<string, unknown>> => {
  const [channels, subscriptions, groups, groupIds] = await Promise.all([
    realmChannels(ctx),
    ownSubscriptions(ctx),
    realmGroups(ctx),
    ownGroupIds(ctx),
  ]);
  const now = nowSeconds();
  const showArchived = ctx.capabilities.archived_channels === true;
  const visible = channels.filter((c) => showArchived || !c.isArchived);
  const byId = new Map(visible.map((c) => [c.id, c]));
  const nullsAllowed = ctx.capabilities.notification_settings_null === true;

  const subscribed: { channel: Channel; dict: Record<string, unknown> }[] = [];
  const unsubscribed: { channel: Channel; dict: Record<string, unknown> }[] = [];
  const seen = new Set<number>();
  for (const sub of subscriptions) {
    const channel = byId.get(sub.channelId);
    if (!channel) continue;
    seen.add(channel.id);
    const dict = { ...channelApiFields(channel, groups, now, renderPlainMarkdown), ...subscriptionFields(sub, user, nullsAllowed) };
    if (sub.active) subscribed.push({ channel, dict });
    else if (hasMetadataAccess(channel, viewerOf(user, false, groupIds))) {
      // A channel one has left stays listed only while one may still see it.
      unsubscribed.push({ channel, dict });
    }
  }
  const neverSubscribed = visible
    .filter((c) => !seen.has(c.id))
    .filter((c) => hasMetadataAccess(c, viewerOf(user, false, groupIds)))
    .map((channel) => ({ channel, dict: channelApiFields(channel, groups, now, renderPlainMarkdown) }));

  const subscribedIds = new Set(subscribed.map((e) => e.channel.id));
  await addSubscribers(ctx, user, [...subscribed, ...unsubscribed, ...neverSubscribed], subscribedIds);
  const sorted = (list: { channel: Channel; dict: Record<string, unknown> }[]) =>
    list.sort((a, b) => byName(a.channel, b.channel)).map((e) => e.dict);
  return { subscriptions: sorted(subscribed), unsubscribed: sorted(unsubscribed), never_subscribed: sorted(neverSubscribed) };
};

/** A spectator's lists: every web-public channel as a simulated new subscription. */
const spectatorSubscriptionLists = async (ctx: StateContext): Promise<Record<string, unknown>> => {
  const [channels, groups] = await Promise.all([realmChannels(ctx), realmGroups(ctx)]);
  const now = nowSeconds();
  const webPublic = channels.filter((c) => c.isWebPublic && !c.isArchived);
  return {
    subscriptions: webPublic.map((channel, i) => ({
      ...channelApiFields(channel, groups, now, renderPlainMarkdown),
      color: STREAM_ASSIGNMENT_COLORS[i % STREAM_ASSIGNMENT_COLORS.length],
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: true,
      email_notifications: true,
      push_notifications: true,
      audible_notifications: true,
      wildcard_mentions_notify: true,
    })),
    unsubscribed: [],
    never_subscribed: [],
  };
};

/** "subscription": subscriptions, unsubscribed and never_subscribed, each sorted by name. */
export const subscriptionState: StateBuilder = async (ctx) => {
  if (!ctx.want('subscription')) return {};
  return ctx.user ? subscriptionLists(ctx, ctx.user) : spectatorSubscriptionLists(ctx);
};

/**
 * "stream": every channel whose metadata the caller may see (hasMetadataAccess: public ones, not
 * for guests; subscribed and web-public ones; for administrators and the channel's permission
 * groups also private ones), by name; archived ones only for clients
 * with archived_channels. Spectators get no `streams` (upstream leaves it out for them; their
 * web-public channels are in `subscriptions`).
 */
export const streamState: StateBuilder = async (ctx) => {
  const user = ctx.user;
  if (!ctx.want('stream') || !user) return {};
  const [channels, groups, subscriptions, groupIds] = await Promise.all([
    realmChannels(ctx),
    realmGroups(ctx),
    ownSubscriptions(ctx),
    ownGroupIds(ctx),
  ]);
  const subscribedIds = new Set(subscriptions.filter((s) => s.active).map((s) => s.channelId));
  const showArchived = ctx.capabilities.archived_channels === true;
  const visible = channels
    .filter((c) => showArchived || !c.isArchived)
    .filter((c) => hasMetadataAccess(c, viewerOf(user, subscribedIds.has(c.id), groupIds)));
  const now = nowSeconds();
  return { streams: visible.sort(byName).map((c) => channelApiFields(c, groups, now, renderPlainMarkdown)) };
};

const toApiFolder = (folder: ChannelFolder) => toApiChannelFolder(folder, renderPlainMarkdown);

/**
 * "channel_folders": every folder (archived ones too) in display order; spectators get only the
 * folders holding a web-public channel, in id order.
 */
export const channelFoldersState: StateBuilder = async (ctx) => {
  if (!ctx.want('channel_folders')) return {};
  const folders = await channelFoldersStore.listFolders(ctx.realm.id);
  if (!ctx.user) {
    const channels = await realmChannels(ctx);
    const withWebPublic = new Set(channels.filter((c) => c.isWebPublic && !c.isArchived).map((c) => c.folderId));
    return {
      channel_folders: folders
        .filter((f) => withWebPublic.has(f.id))
        .sort((a, b) => a.id - b.id)
        .map(toApiFolder),
    };
  }
  return { channel_folders: sortFoldersForDisplay(folders).map(toApiFolder) };
};

/** A read context for the channel endpoints (GET /streams, GET /users/me/subscriptions). */
export const channelReadContext = (
  realm: StateContext['realm'],
  user: User,
  opts: { includeSubscribers?: 'true' | 'false' | 'partial'; capabilities?: StateContext['capabilities'] } = {},
): StateContext => ({
  realm,
  user,
  want: () => true,
  capabilities: opts.capabilities ?? {},
  options: {
    applyMarkdown: true,
    clientGravatar: false,
    includeSubscribers: opts.includeSubscribers ?? 'false',
    slimPresence: false,
    presenceHistoryLimitDays: undefined,
  },
});

/**
 * GET /users/me/subscriptions: the caller's active subscriptions as register shows them (with the
 * stored notification settings, null meaning "inherit"), archived channels left out.
 */
export const ownSubscriptionList = async (ctx: StateContext, user: User): Promise<Record<string, unknown>[]> =>
  (await subscriptionLists(ctx, user)).subscriptions as Record<string, unknown>[];

/** Which channels GET /streams lists (upstream's do_get_streams filters). */
export type ChannelQuery = {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
};

/**
 * GET /streams, as upstream's do_get_streams: with include_all every channel whose metadata the
 * caller may see; else the union of the asked-for sets (public ones, never for guests; web-public
 * ones; subscribed ones; those with content access; for a bot, those its owner is subscribed to;
 * default channels, of which this service has none), archived ones only without
 * exclude_archived; sorted by name. One query of channels, groups and the caller's subscriptions
 * (and the owner's, for include_owner_subscribed).
 */
export const listChannelsForQuery = async (ctx: StateContext, user: User, q: ChannelQuery): Promise<Record<string, unknown>[]> => {
  const ownerId = q.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null ? user.botOwnerId : undefined;
  const [channels, groups, subscriptions, groupIds, ownerSubs] = await Promise.all([
    realmChannels(ctx),
    realmGroups(ctx),
    ownSubscriptions(ctx),
    ownGroupIds(ctx),
    ownerId !== undefined ? channelsStore.listSubscriptionsOfUser(ownerId) : Promise.resolve([]),
  ]);
  const subscribedIds = new Set(subscriptions.filter((s) => s.active).map((s) => s.channelId));
  const ownerIds = new Set(ownerSubs.filter((s) => s.active).map((s) => s.channelId));
  const guest = isGuest(user);
  const wanted = (c: Channel): boolean => {
    const viewer = viewerOf(user, subscribedIds.has(c.id), groupIds);
    if (q.includeAll) return hasMetadataAccess(c, viewer);
    return (
      (q.includePublic && !guest && !c.inviteOnly) ||
      (q.includeWebPublic && c.isWebPublic) ||
      (q.includeSubscribed && subscribedIds.has(c.id)) ||
      (q.includeCanAccessContent && hasContentAccess(c, viewer)) ||
      (ownerId !== undefined && ownerIds.has(c.id))
    );
  };
  const now = nowSeconds();
  return channels
    .filter((c) => !(q.excludeArchived && c.isArchived))
    .filter(wanted)
    .sort(byName)
    .map((c) => channelApiFields(c, groups, now, renderPlainMarkdown));
};
