// Attachment records (who uploaded a file, and whether a public message made it readable by more
// people) and their claims (one per message that links the file), in the attachment's partition.
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment, AttachmentClaim } from '../models/attachment';
import { tableName } from './client';
import { batchPut, queryAll, sendConditional, type Item } from './common';
import { entityKeys, lookupKey } from './keys';

/** The most messages that may link one file whose access a read checks (each is a claim item). */
const MAX_ATTACHMENT_CLAIMS = 10_000;

const toAttachment = (item: Item): Attachment => ({
  pathId: item.pathId as string,
  realmId: item.realmId as number,
  ownerId: item.ownerId as number,
  name: item.name as string,
  size: item.size as number,
  contentType: item.contentType as string,
  createTime: item.createTime as number,
  isRealmPublic: item.isRealmPublic === true,
  isWebPublic: item.isWebPublic === true,
});

const toClaim = (item: Item): AttachmentClaim =>
  item.kind === 'channel'
    ? { pathId: item.pathId as string, messageId: item.messageId as number, kind: 'channel', channelId: item.channelId as number }
    : { pathId: item.pathId as string, messageId: item.messageId as number, kind: 'direct', recipientIds: item.recipientIds as number[] };

/** Writes a new attachment record; false when its path id is taken (never, with random path ids). */
export const putAttachment = (attachment: Attachment): Promise<boolean> =>
  sendConditional(
    new PutCommand({
      TableName: tableName('main'),
      Item: { ...entityKeys.attachment(attachment.pathId), ...attachment },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );

/** An attachment and every claim on it, in one query (consistent: a claim just written counts). */
export const getAttachmentWithClaims = async (
  pathId: string,
): Promise<{ attachment: Attachment; claims: AttachmentClaim[] } | undefined> => {
  const k = lookupKey(() => entityKeys.attachment(pathId));
  if (!k) return undefined;
  const items = await queryAll(
    {
      TableName: tableName('main'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': k.pk },
      ConsistentRead: true,
    },
    { max: MAX_ATTACHMENT_CLAIMS + 1 },
  );
  const record = items.find((item) => item.sk === 'ATTACHMENT');
  if (!record) return undefined;
  return { attachment: toAttachment(record), claims: items.filter((item) => item.sk !== 'ATTACHMENT').map(toClaim) };
};

/** Records that these messages link their attachments (idempotent: a claim is keyed by message). */
export const putClaims = (claims: AttachmentClaim[]): Promise<void> =>
  batchPut(
    'main',
    claims.map((claim) => ({ ...entityKeys.attachmentClaim(claim.pathId, claim.messageId), ...claim })),
  );

/** Widens who may read an attachment (never narrows it: a later private message does not undo a public one). */
export const markAttachmentPublic = async (pathId: string, flags: { realmPublic: boolean; webPublic: boolean }): Promise<void> => {
  const sets = [...(flags.realmPublic ? ['isRealmPublic = :t'] : []), ...(flags.webPublic ? ['isWebPublic = :t'] : [])];
  if (sets.length === 0) return;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.attachment(pathId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
};
