// What one request's viewer may see of messages, with the channels and viewers it loaded cached
// for the request: upstream's has_message_access (lib/access/channels.ts canReadChannelMessage) for
// channel messages, a received row for direct messages. Also the narrow lookups, so that a
// narrow's names resolve against the same cached channels.
import { canReadChannelMessage, loadChannelViewer, type ChannelViewer } from '../access/channels';
import type { Channel } from '../models/channel';
import type { Message } from '../models/message';
import type { NarrowLookup } from '../models/narrow';
import { isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as usersStore from '../store/users';

export class MessageViewer {
  private readonly channels = new Map<number, Promise<Channel | undefined>>();
  private readonly viewers = new Map<number, Promise<ChannelViewer>>();
  private realmChannels: Promise<Channel[]> | undefined;

  constructor(readonly user: User) {}

  /** A channel of the viewer's organization (archived included), read once per request. */
  channel(channelId: number): Promise<Channel | undefined> {
    if (!this.channels.has(channelId)) this.channels.set(channelId, channelsStore.getChannel(this.user.realmId, channelId));
    return this.channels.get(channelId)!;
  }

  private viewerOf(channel: Channel): Promise<ChannelViewer> {
    if (!this.viewers.has(channel.id)) this.viewers.set(channel.id, loadChannelViewer(this.user, channel));
    return this.viewers.get(channel.id)!;
  }

  /** Upstream's has_message_access: `received` says whether the viewer has a row for the message. */
  async canSee(message: Message, received: boolean): Promise<boolean> {
    if (message.realmId !== this.user.realmId) return false;
    if (message.streamId === null) return received;
    const channel = await this.channel(message.streamId);
    if (!channel) return false;
    return canReadChannelMessage(channel, await this.viewerOf(channel), received);
  }

  /** Whether the viewer may read a channel's whole history (upstream's ok_to_include_history). */
  async readsWholeHistory(channelId: number): Promise<boolean> {
    const channel = await this.channel(channelId);
    if (!channel) return false;
    return canReadChannelMessage(channel, await this.viewerOf(channel), false);
  }

  /** Whether the viewer muted the channel (first_unread skips muted channels outside DM narrows). */
  async mutedChannel(channelId: number): Promise<boolean> {
    return (await channelsStore.getSubscription(this.user.id, channelId))?.isMuted === true;
  }

  private allChannels(): Promise<Channel[]> {
    this.realmChannels ??= channelsStore.listChannelsOfRealm(this.user.realmId);
    return this.realmChannels;
  }

  /** Name and id lookups for resolving a narrow (channel names read the organization's channel list once). */
  narrowLookup(): NarrowLookup {
    return {
      channel: async (nameOrId) => {
        if (typeof nameOrId === 'number') return this.channel(nameOrId);
        const name = nameOrId.trim().toLowerCase();
        const found = (await this.allChannels()).find((c) => c.name.toLowerCase() === name);
        if (found) this.channels.set(found.id, Promise.resolve(found));
        return found;
      },
      channelIds: async (which) =>
        (await this.allChannels()).filter((c) => (which === 'web-public' ? c.isWebPublic : !c.inviteOnly)).map((c) => c.id),
      user: async (emailOrId) => {
        if (typeof emailOrId === 'number') return usersStore.get(this.user.realmId, emailOrId);
        return usersStore.getByEmail(this.user.realmId, emailOrId.trim());
      },
      mutedChannelIds: async () =>
        (await channelsStore.listSubscriptionsOfUser(this.user.id)).filter((s) => s.active && s.isMuted).map((s) => s.channelId),
    };
  }

  get isGuest(): boolean {
    return isGuest(this.user);
  }
}
