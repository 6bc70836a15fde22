// A bot's storage: one item per key (its sort key a hash of the key, so keys of any length fit),
// and one item with the running total of its size, which every write changes in the same
// transaction as the entries, conditioned on the total it read.
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { documentClient, tableName } from './client';
import { batchGet, queryPrefix } from './common';
import { entityKeys } from './keys';
import { MAX_USER_OBJECTS } from './limits';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type BotStorageEntry = { key: string; value: string };

const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex');
const entryKey = (botId: number, key: string) => entityKeys.botStorageEntry(botId, keyHash(key));

/** Every entry of a bot's storage. */
export const listEntries = async (botId: number): Promise<BotStorageEntry[]> => {
  const k = entityKeys.botStorageOfBot(botId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { consistent: true, max: MAX_USER_OBJECTS })).map((item) => ({
    key: item.key as string,
    value: item.value as string,
  }));
};

/** The entries of these keys that exist (consistent reads). */
export const getEntries = async (botId: number, keys: string[]): Promise<Map<string, string>> => {
  const items = await batchGet(
    'main',
    [...new Set(keys)].map((key) => entryKey(botId, key)),
    { consistent: true },
  );
  return new Map(items.map((item) => [item.key as string, item.value as string]));
};

/** The total size of a bot's storage (0 when it never stored anything). */
export const getSize = async (botId: number): Promise<number> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.botStorageSize(botId), ConsistentRead: true }),
  );
  return (out.Item?.size as number | undefined) ?? 0;
};

/**
 * Writes (value) or removes (null) entries and sets the total size from `oldSize` to `newSize`,
 * in one transaction conditioned on the total and on each entry being as read (`old`). False
 * when another write came first (the caller reads again and retries).
 */
export const writeEntries = async (
  botId: number,
  changes: { key: string; value: string | null; old: string | undefined }[],
  oldSize: number,
  newSize: number,
): Promise<boolean> => {
  const table = tableName('main');
  const items: TransactItem[] = [
    {
      Update: {
        TableName: table,
        Key: entityKeys.botStorageSize(botId),
        UpdateExpression: 'SET #s = :new',
        ConditionExpression: oldSize === 0 ? 'attribute_not_exists(#s) OR #s = :old' : '#s = :old',
        ExpressionAttributeNames: { '#s': 'size' },
        ExpressionAttributeValues: { ':new': newSize, ':old': oldSize },
      },
    },
    ...changes.map(({ key, value, old }): TransactItem => {
      const condition =
        old === undefined
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: '#v = :old', ExpressionAttributeNames: { '#v': 'value' }, ExpressionAttributeValues: { ':old': old } };
      return value === null
        ? { Delete: { TableName: table, Key: entryKey(botId, key), ...condition } }
        : { Put: { TableName: table, Item: { ...entryKey(botId, key), botId, key, value }, ...condition } };
    }),
  ];
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
};
