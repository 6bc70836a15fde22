// Unsubscribing from channels (upstream's remove_subscriptions_backend).
import { hasMetadataAccess, subscriberViewers } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEventPerRecipient } from '../../events/send';
import { type Channel, type Subscription } from '../../models/channel';
import type { SubscriptionEvent } from '../../models/event';
import { isAdmin, type User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import { backoff } from '../retry';
import { resolvePrincipals, type Watchers, watchersExcept, sendToWatchers, SUBSCRIBE_ATTEMPTS } from './subscriptions';

/**
 * The channels named (each name stripped) that the caller may see, as upstream's list_to_streams
 * for an unsubscription: "Channel '{name}' does not exist" (STREAM_DOES_NOT_EXIST) for a name no
 * active channel the caller may see has, unless it is among `creating` (channels the same request
 * creates first). Reads only.
 */
export const accessChannelsToLeave = async (
  caller: User,
  names: string[],
  groups: RealmGroups,
  creating: string[] = [],
): Promise<Channel[]> => {
  const channels = await channelsStore.getChannelsByNames(
    caller.realmId,
    names.map((n) => n.trim()),
    { consistent: true },
  );
  const callerActive = new Set((await channelsStore.listSubscriptionsOfUser(caller.id)).filter((s) => s.active).map((s) => s.channelId));
  const created = new Set(creating.map((n) => n.toLowerCase()));
  const targets: Channel[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const channel = channels.find((c) => !c.isArchived && c.name.toLowerCase() === name.toLowerCase());
    const visible =
      channel &&
      hasMetadataAccess(channel, {
        user: caller,
        subscribed: callerActive.has(channel.id),
        inSetting: (v) => groups.isInSetting(v, caller.id),
      });
    if (created.has(name.toLowerCase())) continue;
    if (!channel || !visible)
      throw new ApiError(`Channel '${name}' does not exist`, { code: ErrorCode.STREAM_DOES_NOT_EXIST, data: { stream: name } });
    if (!targets.includes(channel)) targets.push(channel);
  }
  return targets;
};

/**
 * DELETE /users/me/subscriptions, as upstream's remove_subscriptions_backend. Checks, in order:
 * every name an existing, non-archived channel of the organization the caller may see ("Channel
 * '{name}' does not exist", code STREAM_DOES_NOT_EXIST); with principals naming others, each
 * principal an active user of the organization (403) and, per channel, the caller in its
 * can_remove_subscribers_group or an administrator ("Insufficient permission"). Writes the rows
 * inactive with the channel's subscriberCount, per channel (transactions of 100). Emits
 * `subscription` remove to each removed user and `subscription` peer_remove per channel to the
 * other users who could see its subscribers.
 */
export const doUnsubscribe = async (
  caller: User,
  names: string[],
  principals: (number | string)[] | undefined,
): Promise<Record<string, unknown>> => {
  const groups = await RealmGroups.load(caller.realmId);
  const targets = await accessChannelsToLeave(caller, names, groups);
  const list = principals ?? [];
  const others = list.length > 0 && !(list.length === 1 && (list[0] === caller.id || list[0] === caller.email));
  const users = list.length > 0 ? await resolvePrincipals(caller, list) : [caller];
  if (others) {
    const allowed = (c: Channel) => isAdmin(caller) || groups.hasPermission(caller, c.groupSettings.can_remove_subscribers_group, false);
    if (!targets.every(allowed)) throw new BadRequestError('Insufficient permission');
  }

  const removed: string[] = [];
  const notRemoved: string[] = [];
  const removeEvents = new Map<number, { stream_id: number; name: string }[]>();
  const peerRemoves: { channel: Channel; userIds: number[]; watchers: Watchers }[] = [];
  for (const channel of targets) {
    let gone: Subscription[] = [];
    for (let attempt = 0; ; attempt += 1) {
      const rows = await channelsStore.getSubscriptionsOfUsers(
        channel.id,
        users.map((u) => u.id),
      );
      const active = rows.filter((r) => r.active);
      const { lost } = await channelsStore.writeSubscriptionChange(
        channel,
        active.map((r) => ({ sub: { ...r, active: false }, existed: true })),
        () => true,
      );
      const lostSet = new Set(lost);
      gone = [...gone, ...active.filter((r) => !lostSet.has(r.userId))];
      if (lost.length === 0) break;
      if (attempt + 1 >= SUBSCRIBE_ATTEMPTS)
        throw new ApiError('Too many concurrent changes to this channel; try again.', { statusCode: 409 });
      await backoff(attempt);
    }
    const goneIds = new Set(gone.map((s) => s.userId));
    for (const u of users) (goneIds.has(u.id) ? removed : notRemoved).push(channel.name);
    if (gone.length === 0) continue;
    for (const id of goneIds) removeEvents.set(id, [...(removeEvents.get(id) ?? []), { stream_id: channel.id, name: channel.name }]);
    const before = new Set([...(await channelsStore.listSubscriberIdsOfChannel(channel.id)), ...goneIds]);
    const watchers = watchersExcept(await subscriberViewers(channel, before, groups), goneIds);
    peerRemoves.push({ channel, userIds: [...goneIds].sort((a, b) => a - b), watchers });
  }

  await sendEventPerRecipient(
    caller.realmId,
    [...removeEvents.entries()].map(([userId, subscriptions]) => ({
      userId,
      event: { type: 'subscription', op: 'remove', subscriptions } as SubscriptionEvent,
    })),
  );
  for (const { channel, userIds, watchers } of peerRemoves) {
    const event: SubscriptionEvent = { type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: userIds };
    await sendToWatchers(caller.realmId, event, watchers);
  }
  return { removed, not_removed: notRemoved };
};
