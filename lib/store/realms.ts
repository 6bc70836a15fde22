import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Realm } from '../models/realm';
import { documentClient, tableName } from './client';
import { stripKeys, type Item } from './common';
import { keys, lookupKey } from './keys';

const toRealm = (item: Item): Realm => stripKeys(item) as Realm;

export const buildPutRealmInput = (realm: Realm) => ({
  TableName: tableName('main'),
  Item: { ...keys.realm(realm.id), ...keys.realmByName(realm.stringId), ...realm },
});

export const put = async (realm: Realm): Promise<void> => {
  await documentClient().send(new PutCommand(buildPutRealmInput(realm)));
};

export const get = async (realmId: number): Promise<Realm | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: keys.realm(realmId) }));
  return out.Item ? toRealm(out.Item) : undefined;
};

/** The organization served at a subdomain (its string_id); none for one too long for a key. */
export const getByStringId = async (stringId: string): Promise<Realm | undefined> => {
  const k = lookupKey(() => keys.realmByName(stringId));
  if (!k) return undefined;
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ':sk': k.gsi1sk },
    }),
  );
  const item = out.Items?.[0];
  return item ? toRealm(item) : undefined;
};
