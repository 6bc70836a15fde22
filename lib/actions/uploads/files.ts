// File uploads (upstream's zerver/views/upload.py, zerver/lib/upload, zerver/actions/uploads.py):
// storing a file, deciding who may read it, signing the short-lived URLs the mobile app opens,
// and claiming the uploads a message links so that its recipients may read them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { BadRequestError } from '../../errors';
import {
  attachmentPathIdsIn,
  MAX_FILE_UPLOAD_SIZE_BYTES,
  MAX_FILE_UPLOAD_SIZE_MIB,
  newPathId,
  sanitizeFileName,
  TEMPORARY_URL_VALIDITY_SECONDS,
  uploadUrl,
  type Attachment,
  type AttachmentClaim,
  type UploadedFile,
} from '../../models/attachment';
import type { Channel } from '../../models/channel';
import { type User } from '../../models/user';
import * as attachmentsStore from '../../store/attachments';
import * as filesStore from '../../store/files';
import { allocateIds } from '../../store/common';
import { notifyAttachmentAdded } from './attachments';
import { fileNotFound, accessAttachment } from '../../access/uploads';

/**
 * POST /user_uploads: exactly one file ("You must specify a file to upload", "You may only upload
 * one file at a time"), at most MAX_FILE_UPLOAD_SIZE_MIB. Writes the bytes to S3 under a new
 * random path id, then the attachment record owned by the user with a new id, and its copy in the
 * user's partition (a crash between the two leaves an unreachable object, never a record without
 * its file), adding its size to the organization's upload space. Emits `attachment` add to the
 * uploader's queues.
 */
export const checkUploadFile = async (user: User, files: UploadedFile[]): Promise<{ url: string; filename: string }> => {
  if (files.length === 0) throw new BadRequestError('You must specify a file to upload');
  if (files.length !== 1) throw new BadRequestError('You may only upload one file at a time');
  const [file] = files;
  if (file.content.length > MAX_FILE_UPLOAD_SIZE_BYTES) {
    throw new BadRequestError(`Uploaded file is larger than the allowed limit of ${MAX_FILE_UPLOAD_SIZE_MIB} MiB`);
  }
  const name = sanitizeFileName(file.filename);
  const contentType = file.contentType.trim() === '' ? 'application/octet-stream' : file.contentType;
  const pathId = newPathId(user.realmId, name);
  await filesStore.putFile(pathId, file.content, contentType);
  const attachment: Attachment = {
    id: await allocateIds('attachment'),
    pathId,
    realmId: user.realmId,
    ownerId: user.id,
    name,
    size: file.content.length,
    contentType,
    createTime: nowSeconds(),
    isRealmPublic: false,
    isWebPublic: false,
  };
  if (!(await attachmentsStore.putAttachment(attachment))) throw new Error(`path id ${pathId} already taken`);
  await notifyAttachmentAdded(user, attachment);
  return { url: uploadUrl(pathId), filename: name };
};

const sign = (payload: string): Buffer => createHmac('sha256', config.uploadUrlSecret()).update(payload).digest();

/**
 * GET /api/v1/user_uploads/{realm_id}/{path}: for a file the user may read (accessAttachment), a
 * temporary URL, `/user_uploads/temporary/<token>/<name>`, readable without authentication for
 * TEMPORARY_URL_VALIDITY_SECONDS. The token is the path id and expiry, signed with
 * UPLOAD_URL_SECRET, hex-encoded as upstream's.
 */
export const temporaryFileUrl = async (user: User, realmIdText: string, path: string): Promise<string> => {
  const attachment = await accessAttachment(user, realmIdText, path);
  const payload = `${attachment.pathId}:${nowSeconds() + TEMPORARY_URL_VALIDITY_SECONDS}`;
  const token = Buffer.from(`${payload}:${sign(payload).toString('base64url')}`)
    .toString('hex')
    .toUpperCase();
  return `/user_uploads/temporary/${token}/${encodeURIComponent(attachment.name)}`;
};

/**
 * The file a temporary URL names: upstream's "Invalid token" for a token that is malformed, forged
 * or expired, "Invalid filename" when the name is not the token's file's.
 */
const accessAttachmentByToken = async (token: string, filename: string): Promise<Attachment> => {
  const decoded = /^([0-9A-Fa-f]{2})+$/.test(token) ? Buffer.from(token, 'hex').toString('utf8') : '';
  const match = /^(.+):(\d+):([A-Za-z0-9_-]+)$/.exec(decoded);
  if (!match) throw new BadRequestError('Invalid token');
  const [, pathId, expiry, signature] = match;
  const expected = sign(`${pathId}:${expiry}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || Number(expiry) < nowSeconds())
    throw new BadRequestError('Invalid token');
  if (pathId.split('/').pop() !== filename) throw new BadRequestError('Invalid filename');
  const found = await attachmentsStore.getAttachmentWithClaims(pathId);
  if (!found) throw fileNotFound();
  return found.attachment;
};

/** A readable attachment's bytes from S3 (404 "File not found." if the object is gone). */
const readAttachmentFile = async (attachment: Attachment): Promise<Buffer> => {
  const body = await filesStore.getFile(attachment.pathId);
  if (!body) throw fileNotFound();
  return body;
};

/** A file as it is served: its record (name, type) and its bytes. */
export type ServedFile = { attachment: Attachment; body: Buffer };

/**
 * GET /user_uploads/{realm_id}/{path}: a file the user may read (accessAttachment: "File not
 * found." for none of their organization's, "You are not authorized to view this file." for one
 * they may not read), with its bytes. Reads only.
 */
export const readFile = async (user: User, realmIdText: string, path: string): Promise<ServedFile> => {
  const attachment = await accessAttachment(user, realmIdText, path);
  return { attachment, body: await readAttachmentFile(attachment) };
};

/** GET /user_uploads/temporary/{token}/{filename}: the file a temporary URL was signed for, until it expires, with its bytes. Reads only. */
export const readTemporaryFile = async (token: string, filename: string): Promise<ServedFile> => {
  const attachment = await accessAttachmentByToken(token, filename);
  return { attachment, body: await readAttachmentFile(attachment) };
};

/**
 * GET /thumbnail/status/{realm_id}/{path} (feature level 479): whether a file the user may read
 * (accessAttachment, the refusals of GET /user_uploads) has thumbnails yet. Nothing makes
 * thumbnails here, so every file is as upstream answers for one that has none: false. Reads only.
 */
export const readThumbnailStatus = async (user: User, realmIdText: string, path: string): Promise<boolean> => {
  await accessAttachment(user, realmIdText, path);
  return false;
};

/** Where a message was sent, as the read rule needs it. */
export type MessageRecipient = { kind: 'channel'; channel: Channel } | { kind: 'direct'; recipientIds: number[] };

/**
 * Upstream's do_claim_attachments, for the send (and edit) path: finds the links to this
 * organization's uploads in `content` and records, for each upload that exists, that message
 * `messageId` links it, with the facts the read rule needs (the channel, or the direct message's
 * recipients, sender included). Only the owner's message widens the upload to the whole
 * organization (a public channel) or to the web (a web-public channel); another sender's link is
 * claimed only if the sender may read the upload (else ignored, so a link cannot grant access to
 * someone else's private file). Returns the path ids claimed (a message "has attachment" when
 * any). Writes claims and flags; emits nothing. Idempotent per message.
 */
export const claimAttachmentsForMessage = async (input: {
  realmId: number;
  sender: User;
  messageId: number;
  recipient: MessageRecipient;
  content: string;
}): Promise<string[]> => {
  const { realmId, sender, messageId, recipient, content } = input;
  const claimed: AttachmentClaim[] = [];
  for (const pathId of attachmentPathIdsIn(content, realmId)) {
    const found = await attachmentsStore.getAttachmentWithClaims(pathId);
    if (!found || found.attachment.realmId !== realmId) continue;
    const isOwner = found.attachment.ownerId === sender.id;
    if (!isOwner) {
      const [realmIdText, ...rest] = pathId.split('/');
      const readable = await accessAttachment(sender, realmIdText, rest.join('/')).then(
        () => true,
        () => false,
      );
      if (!readable) continue;
    }
    claimed.push(
      recipient.kind === 'channel'
        ? { pathId, messageId, kind: 'channel', channelId: recipient.channel.id }
        : { pathId, messageId, kind: 'direct', recipientIds: [...new Set([...recipient.recipientIds, sender.id])].sort((a, b) => a - b) },
    );
    if (isOwner && recipient.kind === 'channel') {
      await attachmentsStore.markAttachmentPublic(pathId, {
        realmPublic: !recipient.channel.inviteOnly,
        webPublic: recipient.channel.isWebPublic,
      });
    }
  }
  await attachmentsStore.putClaims(claimed);
  return claimed.map((claim) => claim.pathId);
};
