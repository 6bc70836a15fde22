// The `stream` events the administration of a channel sends (update.ts, archive.ts, delete-topic.ts).
import { RealmGroups } from '../../access/user-groups';
import { nowSeconds } from '../../clock';
import { sendEvent } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { ApiEvent, Audience, StreamDeleteEvent, StreamEvent, StreamUpdateEvent } from '../../models/event';
import { channelApiFields } from '../../models/channel-object';
import { renderPlainMarkdown } from '../../render';

/** Sends an event to an audience, unless it is an empty list of users. */
export const sendTo = async (realmId: number, event: ApiEvent, audience: Exclude<Audience, 'realm'>): Promise<void> => {
  if ('users' in audience && audience.users.length === 0) return;
  await sendEvent(realmId, event, audience);
};

export const updateEvent = (
  channel: Channel,
  property: string,
  value: unknown,
  extra: Partial<StreamUpdateEvent> = {},
): StreamUpdateEvent => ({
  type: 'stream',
  op: 'update',
  stream_id: channel.id,
  name: channel.name,
  property,
  value,
  ...extra,
});

export const createEvent = (channel: Channel, groups: RealmGroups, extra: Partial<StreamEvent> = {}): StreamEvent => ({
  type: 'stream',
  op: 'create',
  streams: [channelApiFields(channel, groups.groups, nowSeconds(), renderPlainMarkdown)],
  ...extra,
});

export const deleteEvent = (channel: Channel, extra: Partial<StreamDeleteEvent> = {}): StreamDeleteEvent => ({
  type: 'stream',
  op: 'delete',
  streams: [{ stream_id: channel.id }],
  stream_ids: [channel.id],
  ...extra,
});
