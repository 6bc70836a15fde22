// Missed-message emails' reply addresses (upstream's MissedMessageEmailAddress): one item per
// address, by its token, naming the user it was sent to and the message whose conversation a reply
// goes to; it expires (REPLY_ADDRESS_DAYS, the TTL `expiresAt`, checked on read as DynamoDB
// deletes expired items late).
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { entityKeys } from './keys';

/** How long a reply address works (upstream: 5 days). */
const REPLY_ADDRESS_DAYS = 5;

export type ReplyAddress = { token: string; realmId: number; userId: number; messageId: number; expiresAt: number };

/** Upstream's missed-message token: "mm" and 32 hexadecimal digits. */
export const isReplyToken = (token: string): boolean => /^mm[0-9a-f]{32}$/.test(token);

/** A new reply address of the user for the message's conversation. */
export const createReplyAddress = async (realmId: number, userId: number, messageId: number, nowSeconds: number): Promise<ReplyAddress> => {
  const address = {
    token: `mm${randomBytes(16).toString('hex')}`,
    realmId,
    userId,
    messageId,
    expiresAt: nowSeconds + REPLY_ADDRESS_DAYS * 86_400,
  };
  await documentClient().send(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.replyAddress(address.token), ...address },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return address;
};

/** The address of a token, expired or not (the caller tells); undefined when unknown. */
export const getReplyAddress = async (token: string): Promise<ReplyAddress | undefined> => {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.replyAddress(token) }));
  if (!out.Item) return undefined;
  return {
    token,
    realmId: Number(out.Item.realmId),
    userId: Number(out.Item.userId),
    messageId: Number(out.Item.messageId),
    expiresAt: Number(out.Item.expiresAt),
  };
};
