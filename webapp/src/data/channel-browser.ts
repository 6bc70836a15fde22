// The channel browser's lists (upstream's #channels/subscribed and #channels/all): the channels I
// can see, by name, each with whether I am subscribed; archived ones left out.
import type { Channels } from './channels';

export type BrowsedChannel = { streamId: number; name: string; description: string; inviteOnly: boolean; subscribed: boolean };

export const browsedChannels = (channels: Channels, which: 'subscribed' | 'all'): BrowsedChannel[] =>
  [...channels.streams.values()]
    .filter((s) => !s.is_archived && (which === 'all' || channels.subs.has(s.stream_id)))
    .map((s) => ({
      streamId: s.stream_id,
      name: s.name,
      description: s.description,
      inviteOnly: s.invite_only,
      subscribed: channels.subs.has(s.stream_id),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.streamId - b.streamId);
