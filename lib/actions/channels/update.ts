// Changing a channel (upstream's zerver/views/streams.py update_stream_backend and
// zerver/actions/streams.py do_change_stream_*, do_unarchive_stream): its name, description,
// privacy, retention and permission groups, and unarchiving it. Who may administer a channel is
// lib/access/channels.ts (accessChannelForAdministration).
import { accessChannelForAdministration, channelMetadataViewers, hasContentAccess, type AdministeredChannel } from '../../access/channels';
import { requireRealmOwner } from '../../access/roles';
import { RealmGroups } from '../../access/user-groups';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { renderPlainMarkdown } from '../../render';
import { type Channel, CHANNEL_GROUP_SETTINGS } from '../../models/channel';
import type { Audience, SubscriptionEvent } from '../../models/event';
import { type GroupSettingValue, type Realm } from '../../models/realm';
import { type User } from '../../models/user';
import { toApiGroupSettingValue, realmGroupSetting } from '../../models/user-group';
import { channelApiFields } from '../../models/channel-object';
import * as channelsStore from '../../store/channels';
import * as usersStore from '../../store/users';
import {
  descriptionNotice,
  permissionHolders,
  permissionNotice,
  postingPermissionNotice,
  renameNotice,
  retentionNotice,
  sendChannelEventsNotices,
  unarchivedNotice,
} from './notices';
import { checkChannelName } from './subscriptions';
import { LostRaceError, retryLostRaces } from '../retry';
import {
  checkGroupSettingValue,
  groupsUsedBy,
  normalizeSettingValue,
  sameSettingValue,
  usedNonSystemGroups,
  type SettingChange,
} from '../groups/manage';
import { sendTo, updateEvent, createEvent, deleteEvent } from './events';
import { accessChannelFolder } from './folders';
import { ALLOWS_EVERYONE, parseRetentionDays, type ChannelGroupSetting } from './new-channel';

/** Settings whose change needs content access (they grant it). */
const REQUIRING_CONTENT_ACCESS = new Set<string>(['can_add_subscribers_group', 'can_subscribe_group']);
/** Settings whose members see the channel's metadata. */
const GRANTING_METADATA_ACCESS = new Set<string>(['can_add_subscribers_group', 'can_administer_channel_group', 'can_subscribe_group']);

/** The organization's message retention (this service keeps messages forever: upstream's -1). */
const REALM_MESSAGE_RETENTION_DAYS = -1;

/** What PATCH /streams/{stream_id} asks to change (absent: unchanged). */
export type ChannelUpdateRequest = {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  /** A folder of the organization, or null for none. */
  folderId?: number | null;
  settings: Partial<Record<ChannelGroupSetting, SettingChange>>;
};

/** The changes a request makes, decided on the channel as read: applied in one write, announced in upstream's order. */
type Plan = {
  before: Channel;
  privacy?: Pick<Channel, 'inviteOnly' | 'historyPublicToSubscribers' | 'isWebPublic'>;
  retention?: number | null;
  unarchive: boolean;
  description?: string;
  name?: string;
  folderId?: number | null;
  settings: { name: ChannelGroupSetting; value: GroupSettingValue }[];
};

/**
 * Checks a request against the channel as read, in upstream's order (update_stream_backend), and
 * returns what it changes. Everything is checked before anything is written, so a refused request
 * changes nothing (upstream commits each property in turn).
 */
const planUpdate = async (realm: Realm, user: User, accessed: AdministeredChannel, req: ChannelUpdateRequest): Promise<Plan> => {
  const { channel, viewer, groups } = accessed;
  const plan: Plan = { before: channel, unarchive: false, settings: [] };

  const isPrivate = req.isPrivate ?? channel.inviteOnly;
  const isWebPublic = req.isWebPublic ?? channel.isWebPublic;
  const history = req.historyPublicToSubscribers ?? (req.isPrivate !== undefined ? !req.isPrivate : channel.historyPublicToSubscribers);
  // Web-public channels are public with shared history; public channels have shared history.
  if (isWebPublic && (!history || isPrivate)) throw new BadRequestError('Invalid parameters');
  if (!isPrivate && !history) throw new BadRequestError('Invalid parameters');
  if (req.isPrivate !== undefined && !hasContentAccess(channel, viewer)) throw new BadRequestError('Channel content access is required.');
  if (req.isPrivate !== undefined) {
    const setting = req.isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!groups.hasPermission(user, realmGroupSetting(realm, groups.groups, setting), false))
      throw new BadRequestError('Insufficient permission');
  }
  if (req.isWebPublic === true) {
    if (!realm.enableSpectatorAccess) throw new BadRequestError('Web-public channels are not enabled.');
    if (!groups.hasPermission(user, realmGroupSetting(realm, groups.groups, 'can_create_web_public_channel_group'), false))
      throw new BadRequestError('Insufficient permission');
  }
  if (req.isPrivate !== undefined || req.isWebPublic !== undefined || req.historyPublicToSubscribers !== undefined) {
    plan.privacy = { inviteOnly: isPrivate, historyPublicToSubscribers: history, isWebPublic };
  }

  if (req.messageRetentionDays !== undefined) {
    requireRealmOwner(user);
    plan.retention = parseRetentionDays(req.messageRetentionDays);
  }

  if (req.isArchived === false) {
    if (!channel.isArchived) throw new BadRequestError('Channel is not currently deactivated');
    if (channel.inviteOnly && (channel.subscriberCount ?? 0) === 0) throw new BadRequestError('Channel is private and have no subscribers');
    plan.unarchive = true;
  }

  // Upstream does not allow newlines in descriptions.
  if (req.description !== undefined) plan.description = req.description.replace(/\n/g, ' ');

  if (req.newName !== undefined) {
    const name = req.newName.trim();
    if (name === channel.name) throw new BadRequestError('Channel already has that name.');
    if (name.toLowerCase() !== channel.name.toLowerCase()) {
      checkChannelName(name);
      const [taken] = await channelsStore.getChannelsByNames(realm.id, [name], { consistent: true });
      if (taken) throw new ApiError(`Channel '${name}' already exists`, { code: ErrorCode.CHANNEL_ALREADY_EXISTS });
    }
    plan.name = name;
  }

  if (req.folderId !== undefined) {
    if (req.folderId !== null) await accessChannelFolder(realm.id, req.folderId);
    plan.folderId = req.folderId;
  }

  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const change = req.settings[setting];
    if (change === undefined) continue;
    const next = normalizeSettingValue(change.new, groups);
    const current = channel.groupSettings[setting];
    if (change.old !== undefined && (current === undefined || !sameSettingValue(normalizeSettingValue(change.old, groups), current))) {
      throw new ApiError("'old' value does not match the expected value.", { code: ErrorCode.EXPECTATION_MISMATCH });
    }
    if (current !== undefined && sameSettingValue(current, next)) continue;
    if (REQUIRING_CONTENT_ACCESS.has(setting) && !hasContentAccess(channel, viewer))
      throw new BadRequestError('Channel content access is required.');
    await checkGroupSettingValue(realm.id, groups, setting, next, { allowNobody: true, allowEveryone: ALLOWS_EVERYONE[setting] });
    plan.settings.push({ name: setting, value: next });
  }
  return plan;
};

/** The channel once the plan's changes are applied. */
const applied = (plan: Plan): Channel => ({
  ...plan.before,
  ...(plan.privacy ?? {}),
  ...(plan.retention !== undefined ? { messageRetentionDays: plan.retention } : {}),
  ...(plan.unarchive ? { isArchived: false, isWebPublic: plan.before.inviteOnly ? false : plan.before.isWebPublic } : {}),
  ...(plan.description !== undefined ? { description: plan.description } : {}),
  ...(plan.name !== undefined ? { name: plan.name } : {}),
  ...(plan.folderId !== undefined ? { folderId: plan.folderId } : {}),
  groupSettings: { ...plan.before.groupSettings, ...Object.fromEntries(plan.settings.map((s) => [s.name, s.value])) },
});

/** Writes a plan's changes in one conditional transaction; a concurrent change of any of them makes it lose (LostRaceError). */
const writePlan = async (plan: Plan, groups: RealmGroups): Promise<void> => {
  const after = applied(plan);
  const fields: channelsStore.ChannelChange['fields'] = {};
  if (plan.privacy) Object.assign(fields, plan.privacy);
  if (plan.retention !== undefined) fields.messageRetentionDays = plan.retention;
  if (plan.unarchive) Object.assign(fields, { isArchived: false, isWebPublic: after.isWebPublic });
  if (plan.description !== undefined) fields.description = plan.description;
  if (plan.name !== undefined) fields.name = plan.name;
  if (plan.folderId !== undefined) fields.folderId = plan.folderId;
  const settings = Object.fromEntries(plan.settings.map((s) => [s.name, s.value]));
  if (Object.keys(fields).length === 0 && plan.settings.length === 0) return;
  const usedGroupIds = usedNonSystemGroups(
    groups,
    plan.settings.flatMap((s) => groupsUsedBy(s.value)),
  );
  if (!(await channelsStore.updateChannel(plan.before, { fields, settings, usedGroupIds }))) throw new LostRaceError();
};

/** The users of `a` not in `b` (both explicit lists). */
const usersNotIn = (a: Exclude<Audience, 'realm'>, b: Exclude<Audience, 'realm'>): number[] => {
  if (!('users' in a) || !('users' in b)) return [];
  const inB = new Set(b.users);
  return a.users.filter((id) => !inB.has(id));
};

/** `audience` without these users. */
const without = (audience: Exclude<Audience, 'realm'>, ids: number[]): Exclude<Audience, 'realm'> => {
  const drop = new Set(ids);
  return 'users' in audience
    ? { users: audience.users.filter((id) => !drop.has(id)) }
    : { everyoneBut: [...new Set([...audience.everyoneBut, ...ids])].sort((a, b) => a - b) };
};

/** Upstream's get_users_string_with_permission, for the posting permission notice. */
const describeHolders = async (realm: Realm, groups: RealmGroups, value: GroupSettingValue | undefined): Promise<string> => {
  if (value === undefined) return '';
  if (typeof value === 'number')
    return permissionHolders(
      groups.groups.filter((g) => g.id === value),
      [],
    );
  const users = await usersStore.getMany(realm.id, value.direct_members);
  return permissionHolders(
    groups.groups.filter((g) => value.direct_subgroups.includes(g.id)),
    users,
  );
};

/**
 * Sends the events and notices of an applied plan in upstream's order: privacy, retention,
 * unarchiving, description, name, then each permission group. Each event goes to who may see
 * the channel's metadata at that point (channelMetadataViewers); users who start to see it get
 * the channel (`stream` create and `subscription` peer_add) and users who stop get `stream`
 * delete, as upstream's do_change_stream_permission and do_change_stream_group_based_setting.
 */
const announcePlan = async (realm: Realm, actingUser: User, plan: Plan, groups: RealmGroups): Promise<void> => {
  let state = plan.before;
  const notices: string[] = [];
  const viewersOf = (c: Channel) => channelMetadataViewers(c, groups);

  if (plan.privacy) {
    const before = await viewersOf(state);
    const next = { ...state, ...plan.privacy };
    const after = await viewersOf(next);
    if (state.inviteOnly && !next.inviteOnly && 'users' in before && 'everyoneBut' in after) {
      // Newly visible: everyone the public channel shows to who was not a viewer before.
      const gaining = { everyoneBut: [...new Set([...after.everyoneBut, ...before.users])].sort((a, b) => a - b) };
      await sendTo(realm.id, createEvent(next, groups), gaining);
      const subscribers = (await channelsStore.listSubscriberIdsOfChannel(next.id)).sort((a, b) => a - b);
      const peerAdd: SubscriptionEvent = { type: 'subscription', op: 'peer_add', stream_ids: [next.id], user_ids: subscribers };
      await sendTo(realm.id, peerAdd, gaining);
      await sendTo(
        realm.id,
        updateEvent(next, 'invite_only', next.inviteOnly, {
          history_public_to_subscribers: next.historyPublicToSubscribers,
          is_web_public: next.isWebPublic,
        }),
        { users: before.users },
      );
    } else {
      await sendTo(
        realm.id,
        updateEvent(next, 'invite_only', next.inviteOnly, {
          history_public_to_subscribers: next.historyPublicToSubscribers,
          is_web_public: next.isWebPublic,
        }),
        after,
      );
    }
    notices.push(permissionNotice(actingUser, state, next));
    state = next;
  }

  if (plan.retention !== undefined) {
    const old = state.messageRetentionDays;
    state = { ...state, messageRetentionDays: plan.retention };
    await sendTo(realm.id, updateEvent(state, 'message_retention_days', plan.retention), await viewersOf(state));
    notices.push(retentionNotice(actingUser, old, plan.retention, REALM_MESSAGE_RETENTION_DAYS));
  }

  if (plan.unarchive) {
    state = { ...state, isArchived: false, isWebPublic: state.inviteOnly ? false : state.isWebPublic };
    const viewers = await viewersOf(state);
    await sendTo(realm.id, updateEvent(state, 'is_archived', false), viewers);
    await sendTo(realm.id, createEvent(state, groups, { for_unarchiving: true }), viewers);
    notices.push(unarchivedNotice(state));
  }

  if (plan.description !== undefined) {
    const old = state.description;
    state = { ...state, description: plan.description };
    const event = updateEvent(state, 'description', plan.description, { rendered_description: renderPlainMarkdown(plan.description) });
    await sendTo(realm.id, event, await viewersOf(state));
    notices.push(descriptionNotice(actingUser, old, plan.description));
  }

  if (plan.name !== undefined) {
    const oldName = state.name;
    // The event names the channel by its old name, as upstream's.
    await sendTo(realm.id, updateEvent(state, 'name', plan.name), await viewersOf(state));
    state = { ...state, name: plan.name };
    notices.push(renameNotice(actingUser, oldName, plan.name));
  }

  if (plan.folderId !== undefined) {
    // As upstream's do_change_stream_folder: sent even when the folder stays, and with no notice.
    state = { ...state, folderId: plan.folderId };
    await sendTo(realm.id, updateEvent(state, 'folder_id', plan.folderId), await viewersOf(state));
  }

  for (const { name: setting, value } of plan.settings) {
    const old = state.groupSettings[setting];
    const next = { ...state, groupSettings: { ...state.groupSettings, [setting]: value } };
    const event = updateEvent(next, setting, toApiGroupSettingValue(value));
    const after = await viewersOf(next);
    if (GRANTING_METADATA_ACCESS.has(setting)) {
      const before = await viewersOf(state);
      const gaining = usersNotIn(after, before);
      const losing = usersNotIn(before, after);
      await sendTo(realm.id, event, without(after, gaining));
      if (gaining.length > 0) {
        await sendTo(realm.id, createEvent(next, groups), { users: gaining });
        const subscribers = (await channelsStore.listSubscriberIdsOfChannel(next.id)).sort((a, b) => a - b);
        const peerAdd: SubscriptionEvent = { type: 'subscription', op: 'peer_add', stream_ids: [next.id], user_ids: subscribers };
        await sendTo(realm.id, peerAdd, { users: gaining });
      }
      if (losing.length > 0) await sendTo(realm.id, deleteEvent(next), { users: losing });
    } else {
      await sendTo(realm.id, event, after);
    }
    if (setting === 'can_send_message_group') {
      const oldPolicy = channelApiFields(state, groups.groups, 0, renderPlainMarkdown).stream_post_policy;
      const newPolicy = channelApiFields(next, groups.groups, 0, renderPlainMarkdown).stream_post_policy;
      if (oldPolicy !== newPolicy) {
        await sendTo(realm.id, updateEvent(next, 'stream_post_policy', newPolicy), after);
        await sendTo(realm.id, updateEvent(next, 'is_announcement_only', newPolicy === 2), after);
      }
      notices.push(
        postingPermissionNotice(actingUser, await describeHolders(realm, groups, old), await describeHolders(realm, groups, value)),
      );
    }
    state = next;
  }

  await sendChannelEventsNotices(realm, state, notices);
};

/**
 * PATCH /streams/{stream_id}, as upstream's update_stream_backend for new_name, description,
 * is_private, is_web_public, history_public_to_subscribers, message_retention_days,
 * is_archived=false, folder_id ("Invalid channel folder ID" unless a folder of the organization;
 * the folders' channel counts move in the same transaction) and the channel permission groups. Checks: the caller administers the
 * channel (accessChannelForAdministration), then each change in upstream's order (planUpdate);
 * nothing is written unless every check passes. Writes every change in one transaction,
 * conditioned on each changed property being as read (a concurrent change makes the checks run
 * again on fresh data), with the channel's name lock moved on a rename and the groups a new
 * setting names marked as used. Emits `stream` update events (one per property; privacy and
 * permission changes also `stream` create / `subscription` peer_add / `stream` delete to who
 * starts or stops seeing the channel), then Notification Bot's notices in "channel events".
 */
export const checkUpdateChannel = async (realm: Realm, user: User, channelId: number, req: ChannelUpdateRequest): Promise<void> => {
  const { plan, groups } = await retryLostRaces(async () => {
    const accessed = await accessChannelForAdministration(user, channelId);
    const plan = await planUpdate(realm, user, accessed, req);
    await writePlan(plan, accessed.groups);
    return { plan, groups: accessed.groups };
  });
  await announcePlan(realm, user, plan, groups);
};
