// Archiving a channel (upstream's deactivate_stream_backend and do_deactivate_stream).
import { accessChannelForAdministration, channelMetadataViewers } from '../../access/channels';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { RealmEvent } from '../../models/event';
import { REALM_CHANNEL_SETTINGS, realmChannelSetting, type Realm, type RealmChannelSettingName } from '../../models/realm';
import { type User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import * as realmsStore from '../../store/realms';
import { archivedNotice, sendChannelEventsNotices } from './notices';
import { LostRaceError, retryLostRaces } from '../retry';
import { sendTo, updateEvent, deleteEvent } from './events';

/**
 * DELETE /streams/{stream_id}, as upstream's do_deactivate_stream: the caller administers the
 * channel; an archived one: "Channel is already deactivated". Writes `isArchived` (conditioned on
 * the channel being active, so of two concurrent requests one archives). Messages and
 * subscriptions are kept, as upstream's current version does: the channel stays readable and can
 * be unarchived with its subscribers. When it was the organization's new-channel announcements
 * channel, that setting is unset (a `realm` update_dict to everyone). Emits, to who could see the channel, `stream` update
 * `is_archived` (queues with archived_channels) and `stream` delete for_archiving (the others),
 * then Notification Bot's "Channel … has been archived." read by everyone.
 */
export const checkArchiveChannel = async (realm: Realm, user: User, channelId: number): Promise<void> => {
  const { channel, viewers } = await retryLostRaces(async () => {
    const { channel, groups } = await accessChannelForAdministration(user, channelId);
    if (channel.isArchived) throw new BadRequestError('Channel is already deactivated');
    const viewers = await channelMetadataViewers(channel, groups);
    if (!(await channelsStore.updateChannel(channel, { fields: { isArchived: true } }))) throw new LostRaceError();
    return { channel: { ...channel, isArchived: true }, viewers };
  });
  // Upstream's maybe_set_moderation_or_announcement_channels_none: each organization setting that
  // names the channel is unset, if it still names it.
  for (const name of Object.keys(REALM_CHANNEL_SETTINGS) as RealmChannelSettingName[]) {
    if (realmChannelSetting(realm, name) !== channel.id) continue;
    if (!(await realmsStore.clearChannelSetting(realm.id, REALM_CHANNEL_SETTINGS[name], channel.id))) continue;
    const event: RealmEvent = { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: -1 } };
    await sendEvent(realm.id, event, 'realm');
  }
  await sendTo(realm.id, updateEvent(channel, 'is_archived', true), viewers);
  await sendTo(realm.id, deleteEvent(channel, { for_archiving: true }), viewers);
  await sendChannelEventsNotices(realm, channel, [archivedNotice(channel)], { readByAll: true });
};
