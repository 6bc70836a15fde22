// Subscribing to channels, creating those that do not exist yet (upstream's
// add_subscriptions_backend, zerver/actions/streams.py and actions/subscriptions.py). Access
// rules live in lib/access/channels.ts.
import { hasMetadataAccess, subscriberViewers, type ChannelViewer, maySubscribeSelf, mayAddSubscribers } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { realmGroupSetting, type UserGroup } from '../../models/user-group';
import { ApiError, BadRequestError, ChannelExistsError, ErrorCode } from '../../errors';
import { sendEvent, sendEventPerRecipient } from '../../events/send';
import {
  MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
  newSubscription,
  type Channel,
  type Subscription,
  CHANNEL_GROUP_SETTINGS,
  STREAM_ASSIGNMENT_COLORS,
} from '../../models/channel';
import type { ApiEvent, Audience, StreamEvent, SubscriptionEvent } from '../../models/event';
import type { Realm } from '../../models/realm';
import { isGuest, type User } from '../../models/user';
import { channelApiFields, subscriptionFields } from '../../models/channel-object';
import { allocateIds } from '../../store/common';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import { nowSeconds } from '../../clock';
import { sendNewSubscriptionNotices } from './notices';
import { LostRaceError, backoff, retryLostRaces } from '../retry';
import { renderPlainMarkdown } from '../../render';

/** What a caller asks POST /users/me/subscriptions to do. */
export type SubscribeRequest = {
  /** `color`: the new subscriptions' color (upstream's color_map), instead of one picked. */
  channels: { name: string; description?: string; color?: string }[];
  /** User ids or emails; undefined or empty: the caller. */
  principals: (number | string)[] | undefined;
  authorizationErrorsFatal: boolean;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean | undefined;
  /** Announce new channels in the organization's new-channel announcements channel. */
  announce: boolean;
  /** Whether users subscribed by the caller get Notification Bot's direct message (send_new_subscription_messages). */
  sendNewSubscriptionMessages: boolean;
  /**
   * Called once every check passed, before the first write, with the names of the channels this
   * request will create: PATCH /users/me/subscriptions checks its `delete` there, so that an
   * error in either half leaves nothing changed (upstream's compose_views in one transaction).
   */
  beforeWrites?: (creating: string[]) => Promise<void>;
  /**
   * POST /channels/create: every named channel must be new (an existing one, archived too, is
   * ChannelExistsError), and `principals` are the only subscribers (none when empty).
   */
  createOnly?: boolean;
};

/** Upstream's limits on a new channel's name and description. */
const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/** Upstream's check_stream_name: not empty, at most 60 characters, no control or NUL characters. */
export const checkChannelName = (name: string): void => {
  if (name === '') throw new BadRequestError("Channel name can't be empty.");
  if ([...name].length > MAX_CHANNEL_NAME_LENGTH)
    throw new BadRequestError(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  const bad = [...name].findIndex((ch) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch) || /[\p{Co}]/u.test(ch));
  if (bad >= 0) throw new BadRequestError(`Invalid character in channel name, at position ${bad + 1}.`);
};

/**
 * The color of a new subscription: the first of upstream's assignment colors the user does not
 * use yet when their subscriptions are known (the caller's own), else one chosen by the channel
 * id, so that subscribing a thousand others reads no subscription list of theirs.
 */
const pickColor = (channelId: number, usedColors: Set<string> | undefined): string =>
  (usedColors && STREAM_ASSIGNMENT_COLORS.find((c) => !usedColors.has(c))) ||
  STREAM_ASSIGNMENT_COLORS[channelId % STREAM_ASSIGNMENT_COLORS.length];

/** The users named by `principals` (ids or emails), active ones of the caller's organization. */
export const resolvePrincipals = async (caller: User, principals: (number | string)[]): Promise<User[]> => {
  const ids = principals.filter((p): p is number => typeof p === 'number');
  const byId = new Map((await usersStore.getMany(caller.realmId, ids)).map((u) => [u.id, u]));
  const result = new Map<number, User>();
  for (const principal of principals) {
    const found = typeof principal === 'number' ? byId.get(principal) : await usersStore.getByEmail(caller.realmId, principal);
    if (!found || !found.isActive) {
      throw new ApiError(`User not authorized to execute queries on behalf of '${principal}'`, {
        statusCode: 403,
        code: ErrorCode.UNAUTHORIZED_PRINCIPAL,
        data: { principal },
      });
    }
    result.set(found.id, found);
  }
  return [...result.values()];
};

/** Who is told of a change to a channel's subscribers or metadata (subscriberViewers). */
export type Watchers = Exclude<Audience, 'realm'>;

/** The watchers without these users (the ones a change is about get their own events). */
export const watchersExcept = (watchers: Watchers, except: Iterable<number>): Watchers => {
  const left = new Set(except);
  return 'users' in watchers
    ? { users: watchers.users.filter((id) => !left.has(id)) }
    : { everyoneBut: [...new Set([...watchers.everyoneBut, ...left])].sort((a, b) => a - b) };
};

/** Sends an event to the watchers, if there are any. */
export const sendToWatchers = async (realmId: number, event: ApiEvent, watchers: Watchers): Promise<void> => {
  if ('users' in watchers && watchers.users.length === 0) return;
  await sendEvent(realmId, event, watchers);
};

/** Attempts at writing one channel's subscriptions before a lost race is given up as a conflict. */
export const SUBSCRIBE_ATTEMPTS = 10;

/**
 * POST /users/me/subscriptions, as upstream's add_subscriptions_backend. Checks, in order: each
 * name stripped; for a name no channel has (case-insensitively): check_stream_name, the
 * description's length, and the organization's can_create_private_channel_group or
 * can_create_public_channel_group ("Insufficient permission"); for existing channels the caller's
 * right to subscribe ("Unable to access channel ({name})." when authorization_errors_fatal, else
 * listed in `unauthorized`); with principals naming others, the right to add subscribers
 * ("Insufficient permission") and each principal an active user of the organization (403
 * "User not authorized to execute queries on behalf of '{principal}'"). Nothing is written before
 * every check passed.
 * Writes: the new channels (with upstream's defaults) with their name locks, in one transaction
 * (a name another request took first, in any case, makes the whole request start again and find
 * that channel existing, as upstream's get_or_create does), then per channel the new or
 * reactivated subscription rows together with the channel's subscriberCount (transactions of 100
 * items). Emits: `stream` create (new channels, and channels a new subscriber could not see
 * before) to who may see the channel; `subscription` add to each new subscriber with their new
 * subscriptions; `subscription` peer_add per channel to the other users who may see its
 * subscribers. Then Notification Bot's notices (lib/actions/channels/notices.ts) with their
 * `message` events.
 */
export const doSubscribe = (realm: Realm, caller: User, req: SubscribeRequest): Promise<Record<string, unknown>> =>
  retryLostRaces(() => subscribeOnce(realm, caller, req));

/**
 * The caller subscribes themselves to these channels (creating missing ones as public channels)
 * with POST /users/me/subscriptions' defaults and no notices sent: what a new organization's owner
 * and PATCH /users/me/subscriptions' `add` do. Checks, writes and emits as doSubscribe.
 */
export const doSubscribeSelf = (
  realm: Realm,
  caller: User,
  channels: SubscribeRequest['channels'],
  beforeWrites?: SubscribeRequest['beforeWrites'],
): Promise<Record<string, unknown>> =>
  doSubscribe(realm, caller, {
    channels,
    principals: undefined,
    authorizationErrorsFatal: true,
    inviteOnly: false,
    historyPublicToSubscribers: undefined,
    announce: false,
    sendNewSubscriptionMessages: false,
    beforeWrites,
  });

const subscribeOnce = async (realm: Realm, caller: User, req: SubscribeRequest): Promise<Record<string, unknown>> => {
  // Only the channels the request names (their name locks), read consistently: a lost race reads again.
  const [channels, groups] = await Promise.all([
    channelsStore.getChannelsByNames(
      caller.realmId,
      req.channels.map((c) => c.name.trim()),
      { consistent: true },
    ),
    RealmGroups.load(caller.realmId),
  ]);
  const groupList = groups.groups;
  const callerViewer = (_channel: Channel, subscribed: boolean): ChannelViewer => ({
    user: caller,
    subscribed,
    inSetting: (v) => groups.isInSetting(v, caller.id),
  });
  const callerSubs = await channelsStore.listSubscriptionsOfUser(caller.id);
  const callerActive = new Set(callerSubs.filter((s) => s.active).map((s) => s.channelId));

  const existing: Channel[] = [];
  const toCreate: { name: string; description: string }[] = [];
  for (const raw of req.channels) {
    const name = raw.name.trim();
    const found = channels.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (found && req.createOnly) throw new ChannelExistsError(name);
    if (found && found.isArchived) throw new BadRequestError(`Channel '${found.name}' is archived.`);
    if (found) {
      if (!existing.includes(found)) existing.push(found);
      continue;
    }
    checkChannelName(name);
    const description = (raw.description ?? '').trim();
    if (description.length > MAX_CHANNEL_DESCRIPTION_LENGTH) {
      throw new BadRequestError(`description is too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters)`);
    }
    const setting = req.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!groups.hasPermission(caller, realmGroupSetting(realm, groupList, setting), false))
      throw new BadRequestError('Insufficient permission');
    if (!toCreate.some((c) => c.name.toLowerCase() === name.toLowerCase())) toCreate.push({ name, description });
  }

  const authorized = existing.filter((c) => maySubscribeSelf(c, callerViewer(c, callerActive.has(c.id))));
  const unauthorized = existing.filter((c) => !authorized.includes(c));
  if (unauthorized.length > 0 && req.authorizationErrorsFatal)
    throw new BadRequestError(`Unable to access channel (${unauthorized[0].name}).`);

  const principals = req.principals ?? [];
  const others = principals.length > 0 && !(principals.length === 1 && (principals[0] === caller.id || principals[0] === caller.email));
  if (others && !authorized.every((c) => mayAddSubscribers(realm, groups, caller, c))) throw new BadRequestError('Insufficient permission');
  if (others && toCreate.length > 0 && isGuest(caller)) throw new BadRequestError('Insufficient permission');
  const subscribers = principals.length > 0 ? await resolvePrincipals(caller, principals) : req.createOnly ? [] : [caller];
  await req.beforeWrites?.(toCreate.map((c) => c.name));

  // Every check passed: create, then subscribe.
  const now = nowSeconds();
  const created: Channel[] = [];
  if (toCreate.length > 0) {
    const firstId = await allocateIds('channel', toCreate.length);
    for (const [i, c] of toCreate.entries()) {
      created.push(newChannel(realm, caller, groupList, firstId + i, c.name, c.description, req, now));
    }
    // Nothing is written before this: a name taken meanwhile starts the request again.
    if (!(await channelsStore.createChannels(created))) throw new LostRaceError();
  }

  const callerColors = new Set(callerSubs.filter((s) => s.active).map((s) => s.color));
  const colors = new Map(req.channels.filter((c) => c.color !== undefined).map((c) => [c.name.trim().toLowerCase(), c.color!]));
  const { subscribed, already } = await writeSubscriptions(caller, [...authorized, ...created], created, subscribers, groups, {
    callerColors,
    colors,
  });

  // Upstream sends no "subscribed you" messages when one request subscribes many users.
  const directMessages = req.sendNewSubscriptionMessages && subscribed.size <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
  const subscriberById = new Map(subscribers.map((u) => [u.id, u]));
  await sendNewSubscriptionNotices(realm, {
    actingUser: caller,
    subscribed: [...subscribed.entries()].map(([id, channelNames]) => ({ user: subscriberById.get(id)!, channelNames })),
    created,
    announce: req.announce,
    directMessages,
  });

  const byUser = (m: Map<number, string[]>) => Object.fromEntries([...m.entries()].map(([id, names]) => [String(id), names]));
  if (req.createOnly) return { id: created[0]?.id };
  return {
    subscribed: byUser(subscribed),
    already_subscribed: byUser(already),
    ...(req.authorizationErrorsFatal ? {} : { unauthorized: unauthorized.map((c) => c.name) }),
    ...(req.sendNewSubscriptionMessages ? { new_subscription_messages_sent: directMessages } : {}),
  };
};

/**
 * Upstream's bulk_add_subscriptions, without permission checks (its callers made them): writes
 * each user's subscription to each channel (new or reactivated rows, with the channel's
 * subscriberCount; a lost race reads the rows again), then emits `stream` create to those who
 * could not see a channel before (or to its watchers, for channels this request created, listed
 * in `created`), `subscription` add to each new subscriber, and `subscription` peer_add per
 * channel to the other users who may see its subscribers. Returns, per user id, the names of the
 * channels they were subscribed to and of those they already were.
 */
const writeSubscriptions = async (
  caller: User,
  channels: Channel[],
  created: Channel[],
  subscribers: User[],
  groups: RealmGroups,
  colorsOf: { callerColors: Set<string>; colors?: Map<string, string> },
): Promise<{ subscribed: Map<number, string[]>; already: Map<number, string[]> }> => {
  const { callerColors, colors } = colorsOf;
  const groupList = groups.groups;
  const now = nowSeconds();
  const subscribed = new Map<number, string[]>();
  const already = new Map<number, string[]>();
  const addEvents = new Map<number, Record<string, unknown>[]>();
  const streamCreates: { channel: Channel; watchers: Watchers }[] = [];
  const peerAdds: { channel: Channel; added: number[]; watchers: Watchers }[] = [];

  for (const channel of channels) {
    const isNew = created.includes(channel);
    let added: User[] = [];
    const written = new Map<number, Subscription>();
    for (let attempt = 0; ; attempt += 1) {
      const rows =
        isNew && attempt === 0
          ? []
          : await channelsStore.getSubscriptionsOfUsers(
              channel.id,
              subscribers.map((u) => u.id),
            );
      const rowOf = new Map(rows.map((r) => [r.userId, r]));
      const pending = subscribers.filter((u) => rowOf.get(u.id)?.active !== true);
      const writes = pending.map((u) => {
        const old = rowOf.get(u.id);
        const sub = old
          ? { ...old, active: true }
          : newSubscription(
              { userId: u.id, channelId: channel.id, realmId: u.realmId },
              colors?.get(channel.name.toLowerCase()) ?? pickColor(channel.id, u.id === caller.id ? callerColors : undefined),
            );
        return { sub, existed: old !== undefined };
      });
      const { lost } = await channelsStore.writeSubscriptionChange(channel, writes, () => true);
      const lostSet = new Set(lost);
      added = [...added, ...pending.filter((u) => !lostSet.has(u.id))];
      for (const w of writes) if (!lostSet.has(w.sub.userId)) written.set(w.sub.userId, w.sub);
      if (lost.length === 0) break;
      if (attempt + 1 >= SUBSCRIBE_ATTEMPTS)
        throw new ApiError('Too many concurrent changes to this channel; try again.', { statusCode: 409 });
      await backoff(attempt);
    }
    const addedIds = new Set(added.map((u) => u.id));
    for (const u of subscribers) {
      const map = addedIds.has(u.id) ? subscribed : already;
      map.set(u.id, [...(map.get(u.id) ?? []), channel.name]);
    }
    if (added.length === 0) {
      // A new channel without subscribers is still announced to those who may see it.
      if (isNew) streamCreates.push({ channel, watchers: await subscriberViewers(channel, new Set(), groups) });
      continue;
    }
    const after = { ...channel, subscriberCount: (channel.subscriberCount ?? 0) + added.length };
    // The subscriber index holds active users only, and every new subscriber is active.
    const subscriberIds = await channelsStore.listSubscriberIdsOfChannel(channel.id);
    const allSubscribers = [...new Set([...subscriberIds, ...addedIds])].sort((a, b) => a - b);
    const watchers = await subscriberViewers(after, new Set(allSubscribers), groups);
    if (isNew) {
      // As upstream: the channel as created (no subscribers yet), then the subscriptions as peer_add.
      streamCreates.push({ channel, watchers });
    } else {
      // A new subscriber who could not see the channel before learns about it first.
      const newlyVisible = added
        .filter((u) => !hasMetadataAccess(channel, { user: u, subscribed: false, inSetting: (v) => groups.isInSetting(v, u.id) }))
        .map((u) => u.id);
      if (newlyVisible.length > 0) streamCreates.push({ channel: after, watchers: { users: newlyVisible } });
    }
    // One channel object for every new subscriber: their events differ only in their own settings.
    const channelFields = channelApiFields(after, groupList, now, renderPlainMarkdown);
    for (const u of added) {
      const sub = written.get(u.id)!;
      const dict = { ...channelFields, ...subscriptionFields(sub, u, true), subscribers: allSubscribers };
      addEvents.set(u.id, [...(addEvents.get(u.id) ?? []), dict]);
    }
    peerAdds.push({ channel: after, added: [...addedIds].sort((a, b) => a - b), watchers: watchersExcept(watchers, addedIds) });
  }

  for (const { channel, watchers } of streamCreates) {
    const event: StreamEvent = { type: 'stream', op: 'create', streams: [channelApiFields(channel, groupList, now, renderPlainMarkdown)] };
    await sendToWatchers(caller.realmId, event, watchers);
  }
  await sendEventPerRecipient(
    caller.realmId,
    [...addEvents.entries()].map(([userId, subs]) => ({
      userId,
      event: { type: 'subscription', op: 'add', subscriptions: subs } as SubscriptionEvent,
    })),
  );
  for (const { channel, added, watchers } of peerAdds) {
    const event: SubscriptionEvent = { type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: added };
    await sendToWatchers(caller.realmId, event, watchers);
  }

  return { subscribed, already };
};

/**
 * Subscribes users (a new account) to existing channels of the organization, as upstream's
 * bulk_add_subscriptions when an account is created: no permission checks (the caller decided
 * the channels), archived channels left out. Emits what writeSubscriptions emits.
 */
export const doAddSubscriptions = async (realm: Realm, actingUser: User, channels: Channel[], subscribers: User[]): Promise<void> => {
  const active = channels.filter((c) => !c.isArchived);
  if (active.length === 0 || subscribers.length === 0) return;
  await retryLostRaces(async () => {
    const groups = await RealmGroups.load(realm.id);
    await writeSubscriptions(actingUser, active, [], subscribers, groups, { callerColors: new Set() });
  });
};

/** Upstream's defaults for a channel's permission settings when its creator does not set them. */
const NEW_CHANNEL_GROUP_DEFAULTS: Record<(typeof CHANNEL_GROUP_SETTINGS)[number], string> = {
  can_add_subscribers_group: 'role:nobody',
  can_remove_subscribers_group: 'role:administrators',
  can_administer_channel_group: 'creator',
  can_delete_any_message_group: 'role:nobody',
  can_delete_own_message_group: 'role:everyone',
  can_move_messages_out_of_channel_group: 'role:nobody',
  can_move_messages_within_channel_group: 'role:nobody',
  can_send_message_group: 'role:everyone',
  can_subscribe_group: 'role:nobody',
  can_resolve_topics_group: 'role:nobody',
  can_create_topic_group: 'role:everyone',
};

/**
 * A new channel as upstream's create_stream_if_needed makes it: public or private as asked, history
 * shared with subscribers unless a private channel without history_public_to_subscribers, the
 * organization's retention, no folder, the creator administering it (an anonymous group of one).
 */
export const newChannel = (
  realm: Pick<Realm, 'id'>,
  creator: Pick<User, 'id'> | null,
  groups: UserGroup[],
  id: number,
  name: string,
  description: string,
  req: Pick<SubscribeRequest, 'inviteOnly' | 'historyPublicToSubscribers'>,
  now: number,
): Channel => {
  const systemGroup = (groupName: string): number => groups.find((g) => g.isSystemGroup && g.name === groupName)!.id;
  const groupSettings = Object.fromEntries(
    CHANNEL_GROUP_SETTINGS.map((setting) => {
      const d = NEW_CHANNEL_GROUP_DEFAULTS[setting];
      return [setting, d === 'creator' ? { direct_members: creator ? [creator.id] : [], direct_subgroups: [] } : systemGroup(d)];
    }),
  );
  return {
    id,
    realmId: realm.id,
    name,
    description,
    dateCreated: now,
    creatorId: creator?.id ?? null,
    inviteOnly: req.inviteOnly,
    isWebPublic: false,
    // Upstream has no public channel with protected history: a public channel's history is shared.
    historyPublicToSubscribers: req.inviteOnly ? (req.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays: null,
    topicsPolicy: 'inherit',
    folderId: null,
    isArchived: false,
    streamPostPolicy: 1,
    groupSettings,
    subscriberCount: 0,
    firstMessageId: null,
    lastMessageAt: null,
  };
};
