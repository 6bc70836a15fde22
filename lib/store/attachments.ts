// Attachment records (who uploaded a file, and whether a public message made it readable by more
// people) and their claims (one per message that links the file), in the attachment's partition;
// the owner's copy of each upload's id, name and size in the owner's partition (to list their
// uploads and find one by id); and the organization's total of uploaded bytes.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment, AttachmentClaim, OwnUpload } from '../models/attachment';
import { documentClient, tableName } from './client';
import { batchDelete, batchPut, queryAll, queryPrefix, sendConditional, sendTransaction, type Item, type TransactionLoss } from './common';
import { entityKeys, lookupKey } from './keys';
import { MAX_USER_OBJECTS } from './limits';

/** The most messages that may link one file whose access a read checks (each is a claim item). */
const MAX_ATTACHMENT_CLAIMS = 10_000;

const toAttachment = (item: Item): Attachment => ({
  id: Number(item.id ?? 0),
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

/**
 * Writes a new attachment's record and the owner's copy together (refused if either exists: never,
 * with a random path id and a fresh id), then adds its size to the organization's upload space
 * (outside the transaction: every upload of the organization changes that item, and a crash in
 * between only undercounts). False when refused.
 */
export const putAttachment = async (attachment: Attachment): Promise<boolean> => {
  const own: OwnUpload = {
    id: attachment.id,
    pathId: attachment.pathId,
    ownerId: attachment.ownerId,
    name: attachment.name,
    size: attachment.size,
    createTime: attachment.createTime,
  };
  const loss = await sendTransaction([
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.attachment(attachment.pathId), ...attachment },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName('main'),
        Item: { ...entityKeys.ownUpload(attachment.ownerId, attachment.id), ...own },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  if (loss) return false;
  await addUploadSpace(attachment.realmId, attachment.size);
  return true;
};

const addUploadSpace = async (realmId: number, bytes: number): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.uploadSpace(realmId),
      UpdateExpression: 'ADD #b :n',
      ExpressionAttributeNames: { '#b': 'bytes' },
      ExpressionAttributeValues: { ':n': bytes },
    }),
  );
};

/** The bytes of every upload of the organization (consistent; 0 before any). */
export const getUploadSpaceUsed = async (realmId: number): Promise<number> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.uploadSpace(realmId), ConsistentRead: true }),
  );
  return Math.max(0, Number(out.Item?.bytes ?? 0));
};

const toOwnUpload = (item: Item): OwnUpload => ({
  id: Number(item.id),
  pathId: String(item.pathId),
  ownerId: Number(item.ownerId),
  name: String(item.name),
  size: Number(item.size),
  createTime: Number(item.createTime),
});

/** Every upload of a user, in id order (consistent: an upload just made is listed). */
export const listUploadsOfUser = async (userId: number): Promise<OwnUpload[]> => {
  const k = entityKeys.uploadsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { consistent: true, max: MAX_USER_OBJECTS })).map(toOwnUpload);
};

/** One upload of this user by its id, or undefined (another user's id is not in the partition). */
export const getUploadOfUser = async (userId: number, attachmentId: number): Promise<OwnUpload | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.ownUpload(userId, attachmentId), ConsistentRead: true }),
  );
  return out.Item ? toOwnUpload(out.Item) : undefined;
};

/** The ids of the messages that claimed a file, ascending. */
export const listClaimedMessageIds = async (pathId: string): Promise<number[]> => {
  const k = lookupKey(() => entityKeys.attachment(pathId));
  if (!k) return [];
  const items = await queryPrefix('main', k.pk, 'CLAIM#', { consistent: true, max: MAX_ATTACHMENT_CLAIMS });
  return items.map((item) => Number(item.messageId));
};

/**
 * Deletes an upload's record and the owner's copy together, only if the owner's copy still exists
 * (of two concurrent deletes one is refused), then takes its size off the organization's upload
 * space. Undefined when deleted, else why not (`condition`: already gone; `conflict`: retry).
 */
export const deleteAttachment = async (realmId: number, upload: OwnUpload): Promise<TransactionLoss | undefined> => {
  const loss = await sendTransaction([
    {
      Delete: {
        TableName: tableName('main'),
        Key: entityKeys.ownUpload(upload.ownerId, upload.id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: tableName('main'), Key: entityKeys.attachment(upload.pathId) } },
  ]);
  if (!loss) await addUploadSpace(realmId, -upload.size);
  return loss;
};

/** Deletes the claims of a deleted attachment (nothing reads them once the record is gone). */
export const deleteClaims = async (pathId: string, messageIds: number[]): Promise<void> =>
  batchDelete(
    'main',
    messageIds.map((messageId) => entityKeys.attachmentClaim(pathId, messageId)),
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
