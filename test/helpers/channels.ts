// Changes to the seeded channels, subscriptions and messages that a test needs and no endpoint
// makes yet (there is no channel administration or message sending). Written as the stores write.
import { batchPut } from '../../lib/store/common';
import { newSubscription, type Channel } from '../../lib/models/channel';
import type { Message } from '../../lib/models/message';
import * as channelsStore from '../../lib/store/channels';
import * as usersStore from '../../lib/store/users';
import { buildMessageItem, buildMessageRecipientsItems, buildUserMessageItem } from '../../lib/store/messages';

/** Overwrites fields (group settings merged) of a seeded channel. */
export const changeChannel = async (realmId: number, channelId: number, changes: Partial<Channel>): Promise<void> => {
  const channel = (await channelsStore.getChannel(realmId, channelId))!;
  const groupSettings = { ...channel.groupSettings, ...changes.groupSettings };
  await batchPut('main', [channelsStore.buildChannelItem({ ...channel, ...changes, groupSettings })]);
};

/** Subscribes (active) or unsubscribes (inactive row) a user, with default settings; a deactivated user's row says so. */
export const setSubscribed = async (realmId: number, userId: number, channelId: number, active: boolean): Promise<void> => {
  const user = await usersStore.get(realmId, userId);
  await batchPut('main', [
    channelsStore.buildSubscriptionItem({
      ...newSubscription({ userId, channelId, realmId }, '#76ce90'),
      active,
      ...(user?.isActive === false ? { isUserActive: false } : {}),
    }),
  ]);
};

/** Runs `body` with a user unsubscribed from a channel (an inactive row), then subscribes them again. */
export const whileUnsubscribed = async (realmId: number, userId: number, channelId: number, body: () => Promise<void>): Promise<void> => {
  await setSubscribed(realmId, userId, channelId, false);
  try {
    await body();
  } finally {
    await setSubscribed(realmId, userId, channelId, true);
  }
};

/** Stores a channel message, read by each of `receivers`. */
export const putChannelMessage = async (message: Omit<Message, 'dmUserIds'>, receivers: number[]): Promise<void> => {
  const full: Message = { ...message, dmUserIds: [] };
  await batchPut('main', [
    buildMessageItem(full),
    ...receivers.map((id) => buildUserMessageItem(full, id, ['read'])),
    ...buildMessageRecipientsItems(full, receivers),
  ]);
};
