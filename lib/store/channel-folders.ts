// Channel folders in the realm partition: one item per folder (with `channelCount`, the number of
// channels in it, archived ones included, which the channel writes keep in their own
// transactions), a claim of its lowercased name, and the count that bounds them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ChannelFolder } from '../models/channel';
import { documentClient, tableName } from './client';
import { MAX_TRANSACTION_ITEMS, countStep, queryPrefix, sendTransaction, stripKeys, type Item, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

/** Folders reordered per transaction: the rest of a transaction's items, less the first's count check. */
const FOLDERS_PER_REORDER = MAX_TRANSACTION_ITEMS - 1;

/** A stored folder item, without its keys and channel count. */
const toFolder = (item: Item): ChannelFolder => {
  const { channelCount: _count, ...folder } = stripKeys(item);
  return folder as ChannelFolder;
};

/** Every channel folder of an organization, archived ones included, in id order. One Query. */
export const listFolders = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<ChannelFolder[]> => {
  const k = entityKeys.foldersOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(toFolder);
};

const getItem = async (key: { pk: string; sk: string }): Promise<Item | undefined> =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }))).Item;

/** One folder of the organization with the number of channels in it, read consistently, or undefined. */
export const getFolder = async (
  realmId: number,
  folderId: number,
): Promise<{ folder: ChannelFolder; channelCount: number } | undefined> => {
  const item = await getItem(entityKeys.channelFolder(realmId, folderId));
  return item ? { folder: toFolder(item), channelCount: Number(item.channelCount ?? 0) } : undefined;
};

/** Whether a folder of the organization has this name, in any case (its claim), read consistently. */
export const isFolderNameTaken = async (realmId: number, name: string): Promise<boolean> =>
  (await getItem(entityKeys.channelFolderName(realmId, name))) !== undefined;

const nameClaim = (realmId: number, name: string, folderId: number): TransactItem => ({
  Put: {
    TableName: tableName('main'),
    Item: { ...entityKeys.channelFolderName(realmId, name), folderId },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * Writes a new folder with its name claim and counts it: 'written'; 'taken' when a folder has the
 * name in any case; 'full' at MAX_ORGANIZATION_SETTINGS_OBJECTS folders; 'conflict' when a
 * concurrent transaction came first (nothing written: try again).
 */
export const createFolder = async (f: ChannelFolder): Promise<'written' | 'taken' | 'full' | 'conflict'> => {
  const loss = await sendTransaction([
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.channelFolder(f.realmId, f.id), ...f, channelCount: 0 },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    nameClaim(f.realmId, f.name, f.id),
    countStep(entityKeys.channelFolderCount(f.realmId), 1, MAX_ORGANIZATION_SETTINGS_OBJECTS),
  ]);
  if (loss === undefined) return 'written';
  if (loss.lost === 'conflict') return 'conflict';
  return loss.reasons[1] === 'ConditionalCheckFailed' ? 'taken' : 'full';
};

/**
 * Changes a folder's name, description or archived state, each only if still as read (`before`);
 * archiving only while no channel is in the folder; a new name (other than in case) moves the
 * name claim, the new one only if no folder holds it. False when any condition failed or a
 * concurrent transaction came first: nothing was written, and the caller reads and decides again.
 */
export const updateFolder = async (
  before: ChannelFolder,
  changes: Partial<Pick<ChannelFolder, 'name' | 'description' | 'isArchived'>>,
): Promise<boolean> => {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names = Object.fromEntries(entries.map(([field], i) => [`#n${i}`, field]));
  const values: Record<string, unknown> = {};
  entries.forEach(([field, value], i) => {
    values[`:v${i}`] = value;
    values[`:o${i}`] = before[field as keyof ChannelFolder];
  });
  const conditions = ['attribute_exists(pk)', ...entries.map((_, i) => `#n${i} = :o${i}`)];
  if (changes.isArchived === true) {
    names['#c'] = 'channelCount';
    values[':zero'] = 0;
    conditions.push('(attribute_not_exists(#c) OR #c = :zero)');
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.channelFolder(before.realmId, before.id),
        UpdateExpression: `SET ${entries.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (changes.name !== undefined && changes.name.toLowerCase() !== before.name.toLowerCase()) {
    items.push(nameClaim(before.realmId, changes.name, before.id));
    items.push({ Delete: { TableName: tableName('main'), Key: entityKeys.channelFolderName(before.realmId, before.name) } });
  }
  return (await sendTransaction(items)) === undefined;
};

/**
 * Sets each folder's `order` (its index in `order`), in transactions of up to
 * FOLDERS_PER_REORDER folders; the first also checks that the organization still
 * has `folders.length` folders, so a folder created since the caller read them makes it lose
 * (false: nothing was written by that transaction).
 */
export const reorderFolders = async (realmId: number, folderCount: number, order: number[]): Promise<boolean> => {
  for (let start = 0; start < order.length; start += FOLDERS_PER_REORDER) {
    const items: TransactItem[] = order.slice(start, start + FOLDERS_PER_REORDER).map((folderId, i) => ({
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.channelFolder(realmId, folderId),
        UpdateExpression: 'SET #o = :o',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#o': 'order' },
        ExpressionAttributeValues: { ':o': start + i },
      },
    }));
    if (start === 0) {
      items.push({
        ConditionCheck: {
          TableName: tableName('main'),
          Key: entityKeys.channelFolderCount(realmId),
          ConditionExpression: '#c = :n',
          ExpressionAttributeNames: { '#c': 'count' },
          ExpressionAttributeValues: { ':n': folderCount },
        },
      });
    }
    if ((await sendTransaction(items)) !== undefined) return false;
  }
  return true;
};

/**
 * A channel transaction's step of a folder's channel count: channels coming in (a positive step)
 * only if the folder exists, so that a folder gone meanwhile makes the transaction lose; -1 when
 * a channel leaves it.
 */
export const folderChannelStep = (realmId: number, folderId: number, step: number): TransactItem => ({
  Update: {
    TableName: tableName('main'),
    Key: entityKeys.channelFolder(realmId, folderId),
    UpdateExpression: 'ADD #c :step',
    ExpressionAttributeNames: { '#c': 'channelCount' },
    ExpressionAttributeValues: { ':step': step },
    ...(step > 0 ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
  },
});
