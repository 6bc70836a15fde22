// The organization's default channels (upstream's DefaultStream): the channels every new member
// joins. One item per organization holding the ids as a number set, so adding and removing are
// single idempotent updates (ADD / DELETE on the set) that two concurrent changes cannot undo.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { entityKeys } from './keys';

/** The ids of an organization's default channels, ascending (none when it never had any). */
export const listDefaultChannelIds = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<number[]> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.defaultChannels(realmId), ConsistentRead: opts.consistent ?? false }),
  );
  const ids = out.Item?.channelIds as Set<number> | undefined;
  return [...(ids ?? [])].map(Number).sort((a, b) => a - b);
};

/** Makes a channel a default channel; false when it was one already (nothing changed). */
export const addDefaultChannel = async (realmId: number, channelId: number): Promise<boolean> => {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.defaultChannels(realmId),
      UpdateExpression: 'SET realmId = :rid ADD channelIds :ids',
      ExpressionAttributeValues: { ':rid': realmId, ':ids': new Set([channelId]) },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const before = out.Attributes?.channelIds as Set<number> | undefined;
  return !before || ![...before].map(Number).includes(channelId);
};

/** Removes a channel from the default channels (nothing changes if it is not one). */
export const removeDefaultChannel = async (realmId: number, channelId: number): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.defaultChannels(realmId),
      UpdateExpression: 'DELETE channelIds :ids',
      ExpressionAttributeValues: { ':ids': new Set([channelId]) },
    }),
  );
};
