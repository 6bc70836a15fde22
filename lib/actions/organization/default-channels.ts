// The organization's default channels (upstream's zerver/actions/default_streams.py and the
// default-stream views): the channels every new member joins (lib/actions/people/create.ts).
import { accessChannelById } from '../../access/channels';
import { RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import { sendEventToRealmExcept } from '../../events/send';
import type { User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import * as defaultChannelsStore from '../../store/default-channels';
import { forAdministrators } from '../requiring';

/**
 * Upstream's notify_default_streams: every default channel's id to the organization's users but
 * its guests (the direct members of role:everyone), who are told nothing of default channels.
 */
const notifyDefaultChannels = async (realmId: number): Promise<void> => {
  const [ids, groups] = await Promise.all([
    defaultChannelsStore.listDefaultChannelIds(realmId, { consistent: true }),
    RealmGroups.load(realmId),
  ]);
  await sendEventToRealmExcept(realmId, { type: 'default_streams', default_streams: ids }, groups.systemGroup('role:everyone').members);
};

/**
 * POST /default_streams (upstream's add_default_stream): administrators only ("Must be an
 * organization administrator"); the channel one the caller may access and not archived ("Invalid
 * channel ID"), and not private ("Private channels cannot be made default."). Writes the channel
 * into the default channels; if it was not one, emits `default_streams` (notifyDefaultChannels).
 */
export const checkAddDefaultChannel = forAdministrators(async (user: User, channelId: number): Promise<void> => {
  const channel = await accessChannelById(user, channelId, 'Invalid channel ID');
  if (channel.inviteOnly) throw new BadRequestError('Private channels cannot be made default.');
  if (await defaultChannelsStore.addDefaultChannel(user.realmId, channel.id)) await notifyDefaultChannels(user.realmId);
});

/**
 * DELETE /default_streams (upstream's remove_default_stream): administrators only; the channel
 * one of the organization, not archived ("Invalid channel ID"; an administrator may name a
 * private channel, upstream's allow_realm_admin). Removes it from the default channels and emits
 * `default_streams` (notifyDefaultChannels), as upstream does even when it was not one.
 */
export const checkRemoveDefaultChannel = forAdministrators(async (user: User, channelId: number): Promise<void> => {
  const channel = await channelsStore.getChannel(user.realmId, channelId);
  if (!channel || channel.isArchived) throw new BadRequestError('Invalid channel ID');
  await defaultChannelsStore.removeDefaultChannel(user.realmId, channel.id);
  await notifyDefaultChannels(user.realmId);
});

/**
 * New channels become default channels (upstream's do_add_default_stream, as a creator with
 * is_default_stream asks; the caller checked that): writes each, then emits `default_streams` once.
 */
export const doAddDefaultChannels = async (realmId: number, channelIds: number[]): Promise<void> => {
  for (const id of channelIds) await defaultChannelsStore.addDefaultChannel(realmId, id);
  await notifyDefaultChannels(realmId);
};
