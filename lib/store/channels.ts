// Channels (realm partition) and subscriptions (user partition). Reads only, named by access
// pattern; every read is scoped by the caller's organization through the key itself.
import { GetCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Channel, Subscription } from '../models/channel';
import { folderChannelStep } from './channel-folders';
import { documentClient, tableName } from './client';
import {
  MAX_TRANSACTION_ITEMS,
  batchGet,
  buildSetUpdate,
  queryAll,
  queryPrefix,
  sendConditional,
  sendTransaction,
  stripKeys,
  type Item,
  type TransactItem,
} from './common';
import { entityKeys, lookupKey } from './keys';
import type { GroupSettingValue } from '../models/realm';
import { buildUseGroupItem } from './user-groups';
import { MAX_ORGANIZATION_CHANNELS, MAX_ORGANIZATION_USERS } from './limits';

const toChannel = (item: Item): Channel => stripKeys(item) as Channel;
const toSubscription = (item: Item): Subscription => stripKeys(item) as Subscription;

/** A channel of an organization, or undefined (another organization's id looks missing). */
export const getChannel = async (realmId: number, channelId: number, opts: { consistent?: boolean } = {}): Promise<Channel | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.channel(realmId, channelId), ConsistentRead: opts.consistent ?? false }),
  );
  return out.Item ? toChannel(out.Item) : undefined;
};

/** Every channel of an organization, archived ones included, in id order. */
export const listChannelsOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<Channel[]> => {
  const k = entityKeys.channelsOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_CHANNELS })).map(toChannel);
};

/** A user's subscription row for a channel (active or not), or undefined if never subscribed. */
export const getSubscription = async (userId: number, channelId: number): Promise<Subscription | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.subscription(userId, channelId) }),
  );
  return out.Item ? toSubscription(out.Item) : undefined;
};

/** Every subscription row of a user (active and left ones), in channel id order. */
export const listSubscriptionsOfUser = async (userId: number): Promise<Subscription[]> => {
  const k = entityKeys.subscriptionsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_ORGANIZATION_CHANNELS })).map(toSubscription);
};

export const buildListSubscriberIdsInput = (channelId: number, projection = 'userId'): QueryCommandInput => ({
  TableName: tableName('main'),
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': entityKeys.subscribersOfChannel(channelId).gsi1pk },
  ProjectionExpression: projection,
});

/** The ids of a channel's active subscribers who are active users, ascending (the sparse subscriber index). */
export const listSubscriberIdsOfChannel = async (channelId: number): Promise<number[]> =>
  (await queryAll(buildListSubscriberIdsInput(channelId), { max: MAX_ORGANIZATION_USERS })).map((item) => Number(item.userId));

/**
 * The ids of a channel's active subscribers who are active users, ascending; of those whose
 * subscription turns the channel's push notifications on (`push_notifications` true); and of those
 * who follow some topic of it (`followsTopics`): the same query as listSubscriberIdsOfChannel, and
 * the same read units (the index holds whole items).
 */
export const listSubscribersForSend = async (channelId: number): Promise<{ ids: number[]; pushOn: number[]; followTopics: number[] }> => {
  const items = await queryAll(buildListSubscriberIdsInput(channelId, 'userId, pushNotifications, followsTopics'), {
    max: MAX_ORGANIZATION_USERS,
  });
  const idsWhere = (test: (item: Item) => boolean) => items.filter(test).map((item) => Number(item.userId));
  return {
    ids: idsWhere(() => true),
    pushOn: idsWhere((item) => item.pushNotifications === true),
    followTopics: idsWhere((item) => item.followsTopics === true),
  };
};

/** Marks that the user follows a topic of the channel (Subscription.followsTopics); nothing when not subscribed. */
export const markFollowsTopics = async (userId: number, channelId: number): Promise<void> => {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.subscription(userId, channelId),
      UpdateExpression: 'SET followsTopics = :yes',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
};

/** The stored item of a channel (realm partition). */
export const buildChannelItem = (channel: Channel): Item => ({ ...entityKeys.channel(channel.realmId, channel.id), ...channel });

/**
 * The stored item of a subscription row. An active subscription of an active user is also in its
 * channel's subscriber index, which every recipient and subscriber list reads: the one place that
 * keeps deactivated users out of them (upstream filters on Subscription.is_user_active).
 */
export const buildSubscriptionItem = (sub: Subscription): Item => ({
  ...entityKeys.subscription(sub.userId, sub.channelId),
  ...(sub.active && sub.isUserActive !== false ? entityKeys.channelSubscriber(sub.channelId, sub.userId) : {}),
  ...sub,
});

/** The subscription rows of many users for one channel (batched reads; missing rows left out). */
export const getSubscriptionsOfUsers = async (channelId: number, userIds: number[]): Promise<Subscription[]> =>
  (
    await batchGet(
      'main',
      userIds.map((id) => entityKeys.subscription(id, channelId)),
      { consistent: true },
    )
  ).map(toSubscription);

/** The name lock of a channel: one item per name in its organization, compared lowercased. */
export const buildChannelNameItem = (channel: Pick<Channel, 'realmId' | 'id' | 'name'>): Item => ({
  ...entityKeys.channelName(channel.realmId, channel.name),
  realmId: channel.realmId,
  channelId: channel.id,
});

/**
 * The channels of an organization with these names, compared case-insensitively, archived ones
 * included: their name locks, then the channels they name (two batched reads).
 */
export const getChannelsByNames = async (realmId: number, names: string[], opts: { consistent?: boolean } = {}): Promise<Channel[]> => {
  const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lowered.length === 0) return [];
  // A name too long for a key names no channel.
  const lockKeys = lowered.flatMap((name) => lookupKey(() => entityKeys.channelName(realmId, name)) ?? []);
  if (lockKeys.length === 0) return [];
  const locks = await batchGet('main', lockKeys, opts);
  const ids = [...new Set(locks.map((lock) => Number(lock.channelId)))];
  const channels = await batchGet(
    'main',
    ids.map((id) => entityKeys.channel(realmId, id)),
    opts,
  );
  return channels.map(toChannel).sort((a, b) => a.id - b.id);
};

/** A new channel's item and its name lock, each only if absent: no id, and no name in any case, is taken twice. */
export const buildCreateChannelInputs = (channel: Channel): TransactItem[] => [
  { Put: { TableName: tableName('main'), Item: buildChannelItem(channel), ConditionExpression: 'attribute_not_exists(pk)' } },
  { Put: { TableName: tableName('main'), Item: buildChannelNameItem(channel), ConditionExpression: 'attribute_not_exists(pk)' } },
];

/** The channel counts of the folders these new channels go in (one step per folder: each must exist). */
const folderStepsOf = (channels: Channel[]): TransactItem[] => {
  const perFolder = new Map<number, number>();
  for (const c of channels) if (c.folderId !== null) perFolder.set(c.folderId, (perFolder.get(c.folderId) ?? 0) + 1);
  return [...perFolder.entries()].map(([folderId, n]) => folderChannelStep(channels[0].realmId, folderId, n));
};

/**
 * Creates channels with their name locks and their folders' channel counts, with the groups their
 * settings name marked as used (usedGroupIds), all in one transaction (as many channels as the
 * item limit leaves room for; more go in further transactions of that size). False when a transaction was refused
 * because another request took one of the names (or wrote at the same time): none of its
 * channels were written, and the caller reads again and decides again.
 */
export const createChannels = async (channels: Channel[], usedGroupIds: number[] = []): Promise<boolean> => {
  const folders = new Set(channels.map((c) => c.folderId).filter((id) => id !== null)).size;
  const perTransaction = Math.max(1, Math.floor((MAX_TRANSACTION_ITEMS - folders - usedGroupIds.length) / 2));
  for (let i = 0; i < channels.length; i += perTransaction) {
    const chunk = channels.slice(i, i + perTransaction);
    const uses = usedGroupIds.map((id) => buildUseGroupItem(chunk[0].realmId, id));
    if (await sendTransaction([...chunk.flatMap(buildCreateChannelInputs), ...folderStepsOf(chunk), ...uses])) return false;
  }
  return true;
};

/**
 * Writes a change of subscription rows of one channel (all subscribing or all unsubscribing),
 * with the channel's `subscriberCount` moved by the number of rows, in transactions of at most
 * MAX_TRANSACTION_ITEMS items (the counter and up to 99 rows each). Each row is written only if
 * the row is as it was read (absent, or in the opposite state), so a concurrent change makes its
 * transaction lose: `lost` lists the user ids of the transactions that were not written (none of
 * their rows changed), for the caller to re-read and decide again.
 */
export const writeSubscriptionChange = async (
  channel: Pick<Channel, 'realmId' | 'id'>,
  rows: { sub: Subscription; existed: boolean }[],
  countsTowardsSubscribers: (sub: Subscription) => boolean,
): Promise<{ lost: number[] }> => {
  const lost: number[] = [];
  const perTransaction = MAX_TRANSACTION_ITEMS - 1;
  const chunks: (typeof rows)[] = [];
  for (let i = 0; i < rows.length; i += perTransaction) chunks.push(rows.slice(i, i + perTransaction));
  for (const chunk of chunks) {
    const items: TransactItem[] = [];
    for (const { sub, existed } of chunk) {
      items.push({
        Put: {
          TableName: tableName('main'),
          Item: buildSubscriptionItem(sub),
          ...(existed
            ? { ConditionExpression: 'active = :was', ExpressionAttributeValues: { ':was': !sub.active } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      });
    }
    const delta = chunk.filter(({ sub }) => countsTowardsSubscribers(sub)).length * (chunk[0]?.sub.active === false ? -1 : 1);
    if (delta !== 0) {
      items.push({
        Update: {
          TableName: tableName('main'),
          Key: entityKeys.channel(channel.realmId, channel.id),
          UpdateExpression: 'ADD subscriberCount :d',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':d': delta },
        },
      });
    }
    const loss = await sendTransaction(items);
    if (loss) lost.push(...chunk.map(({ sub }) => sub.userId));
  }
  return { lost };
};

/** Changes some of a user's own settings on a subscription row, if the row is active. */
export const updateSubscriptionSettings = async (userId: number, channelId: number, changes: Partial<Subscription>): Promise<boolean> => {
  const set = buildSetUpdate(changes);
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.subscription(userId, channelId),
      ...set,
      ConditionExpression: 'active = :active',
      ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':active': true },
    }),
  );
};

/**
 * Marks a user's active subscription rows as those of a deactivated user (`isUserActive` false:
 * out of the subscriber index) or of a reactivated one (back in it), each row in one transaction
 * with its channel's subscriberCount moved by one, conditioned on the row being active and in the
 * other state. Returns the rows changed (a row changed meanwhile is left as it is).
 */
export const setSubscriptionsUserActive = async (subs: Subscription[], isUserActive: boolean): Promise<Subscription[]> => {
  const changed: Subscription[] = [];
  for (const sub of subs.filter((s) => s.active && (s.isUserActive !== false) !== isUserActive)) {
    const next: Subscription = { ...sub, isUserActive };
    const loss = await sendTransaction([
      {
        Put: {
          TableName: tableName('main'),
          Item: buildSubscriptionItem(next),
          ConditionExpression: isUserActive
            ? 'active = :t AND isUserActive = :f'
            : 'active = :t AND (attribute_not_exists(isUserActive) OR isUserActive = :t)',
          ExpressionAttributeValues: { ':t': true, ...(isUserActive ? { ':f': false } : {}) },
        },
      },
      {
        Update: {
          TableName: tableName('main'),
          Key: entityKeys.channel(sub.realmId, sub.channelId),
          UpdateExpression: 'ADD subscriberCount :d',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':d': isUserActive ? 1 : -1 },
        },
      },
    ]);
    if (!loss) changed.push(next);
  }
  return changed;
};

/**
 * What a change of a channel writes: `fields` are top-level attributes and `settings` entries of
 * `groupSettings`, each written only if it still holds the value it had when the change was
 * decided (`channel`), so of two concurrent changes of one property the later loses and decides
 * again. `usedGroupIds`: groups a new setting names, marked as used in the same transaction (it
 * fails if one was deactivated meanwhile, as creating or updating a group does).
 */
export type ChannelChange = {
  fields?: Partial<Omit<Channel, 'id' | 'realmId' | 'groupSettings' | 'subscriberCount' | 'firstMessageId' | 'lastMessageAt'>>;
  settings?: Record<string, GroupSettingValue>;
  usedGroupIds?: number[];
};

export const buildUpdateChannelInput = (channel: Channel, change: ChannelChange): TransactItem => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const conditions = ['attribute_exists(pk)'];
  let i = 0;
  const add = (path: string[], newValue: unknown, oldValue: unknown) => {
    const ref = path
      .map((part) => {
        const name = `#n${i}_${Object.keys(names).length}`;
        names[name] = part;
        return name;
      })
      .join('.');
    sets.push(`${ref} = :v${i}`);
    values[`:v${i}`] = newValue;
    if (oldValue === undefined) conditions.push(`attribute_not_exists(${ref})`);
    else {
      conditions.push(`${ref} = :o${i}`);
      values[`:o${i}`] = oldValue;
    }
    i += 1;
  };
  for (const [field, value] of Object.entries(change.fields ?? {})) add([field], value, channel[field as keyof Channel]);
  for (const [setting, value] of Object.entries(change.settings ?? {}))
    add(['groupSettings', setting], value, channel.groupSettings[setting]);
  return {
    Update: {
      TableName: tableName('main'),
      Key: entityKeys.channel(channel.realmId, channel.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/**
 * Writes a change of a channel (ChannelChange), with its name lock moved when the name changes
 * other than in case (the new lock only if no channel holds the name). False when a concurrent
 * write came first (a property no longer as read, the name taken, a used group deactivated):
 * nothing was written.
 */
export const updateChannel = async (channel: Channel, change: ChannelChange): Promise<boolean> => {
  const items: TransactItem[] = [buildUpdateChannelInput(channel, change)];
  const newName = change.fields?.name;
  if (newName !== undefined && newName.toLowerCase() !== channel.name.toLowerCase()) {
    items.push({
      Put: {
        TableName: tableName('main'),
        Item: buildChannelNameItem({ ...channel, name: newName }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
    items.push({
      Delete: {
        TableName: tableName('main'),
        Key: entityKeys.channelName(channel.realmId, channel.name),
        ConditionExpression: 'channelId = :id',
        ExpressionAttributeValues: { ':id': channel.id },
      },
    });
  }
  const folderId = change.fields?.folderId;
  if (folderId !== undefined && folderId !== channel.folderId) {
    if (channel.folderId !== null) items.push(folderChannelStep(channel.realmId, channel.folderId, -1));
    if (folderId !== null) items.push(folderChannelStep(channel.realmId, folderId, 1));
  }
  for (const groupId of change.usedGroupIds ?? []) items.push(buildUseGroupItem(channel.realmId, groupId));
  return (await sendTransaction(items)) === undefined;
};
