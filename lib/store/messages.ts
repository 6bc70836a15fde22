// Messages (realm partition) and per-receiver message rows (user partition). Reads only, named by
// access pattern.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Message, UserMessage } from '../models/message';
import { documentClient, tableName } from './client';
import { stripKeys, type Item } from './common';
import { entityKeys } from './keys';

/** A message of an organization, or undefined (another organization's id looks missing). */
export const getMessage = async (realmId: number, messageId: number): Promise<Message | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.message(realmId, messageId) }));
  return out.Item ? (stripKeys(out.Item) as Message) : undefined;
};

/** The receiver's row of a message: present when the user received it. */
export const getUserMessage = async (userId: number, messageId: number): Promise<UserMessage | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.userMessage(userId, messageId) }));
  return out.Item ? (stripKeys(out.Item) as Item as UserMessage) : undefined;
};
