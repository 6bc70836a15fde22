// Channels (realm partition) and subscriptions (user partition). Reads only, named by access
// pattern; every read is scoped by the caller's organization through the key itself.
import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Channel, ChannelFolder, Subscription } from '../models/channel';
import { documentClient, tableName } from './client';
import { queryAll, queryPrefix, stripKeys, type Item } from './common';
import { entityKeys } from './keys';

const toChannel = (item: Item): Channel => stripKeys(item) as Channel;
const toSubscription = (item: Item): Subscription => stripKeys(item) as Subscription;

/** A channel of an organization, or undefined (another organization's id looks missing). */
export const getChannel = async (realmId: number, channelId: number): Promise<Channel | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.channel(realmId, channelId) }));
  return out.Item ? toChannel(out.Item) : undefined;
};

/** Every channel of an organization, archived ones included, in id order. */
export const listChannelsOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<Channel[]> => {
  const k = entityKeys.channelsOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, opts)).map(toChannel);
};

/** A user's subscription row for a channel (active or not), or undefined if never subscribed. */
export const getSubscription = async (userId: number, channelId: number): Promise<Subscription | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.subscription(userId, channelId) }));
  return out.Item ? toSubscription(out.Item) : undefined;
};

/** Every subscription row of a user (active and left ones), in channel id order. */
export const listSubscriptionsOfUser = async (userId: number): Promise<Subscription[]> => {
  const k = entityKeys.subscriptionsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix)).map(toSubscription);
};

export const buildListSubscriberIdsInput = (channelId: number): QueryCommandInput => ({
  TableName: tableName('main'),
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': entityKeys.subscribersOfChannel(channelId).gsi1pk },
  ProjectionExpression: 'userId',
});

/** The ids of a channel's active subscribers, ascending (the sparse subscriber index). */
export const listSubscriberIdsOfChannel = async (channelId: number): Promise<number[]> =>
  (await queryAll(buildListSubscriberIdsInput(channelId))).map((item) => Number(item.userId));

/** Every channel folder of an organization, archived ones included, in id order. */
export const listFoldersOfRealm = async (realmId: number): Promise<ChannelFolder[]> => {
  const k = entityKeys.foldersOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix)).map((item) => stripKeys(item) as ChannelFolder);
};

/** The stored item of a channel (realm partition). */
export const buildChannelItem = (channel: Channel): Item => ({ ...entityKeys.channel(channel.realmId, channel.id), ...channel });

/** The stored item of a subscription row; an active one is also in its channel's subscriber index. */
export const buildSubscriptionItem = (sub: Subscription): Item => ({
  ...entityKeys.subscription(sub.userId, sub.channelId),
  ...(sub.active ? entityKeys.channelSubscriber(sub.channelId, sub.userId) : {}),
  ...sub,
});
