// A user's own uploads (upstream's zerver/views/attachments.py, zerver/lib/attachments.py):
// listing them with the messages that link them and the organization's upload space, deleting
// one, and the `attachment` events that keep the owner's clients' file list current.
import { accessOwnAttachment } from '../../access/uploads';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { toApiAttachment, type ApiAttachment, type OwnUpload } from '../../models/attachment';
import type { User } from '../../models/user';
import * as attachmentsStore from '../../store/attachments';
import * as filesStore from '../../store/files';
import * as messagesStore from '../../store/messages';
import { LostRaceError, retryLostRaces } from '../retry';

/** Uploads whose claims are read at once. */
const CLAIM_READ_CONCURRENCY = 8;

/**
 * The ids of the messages that link each upload, ascending, as upstream's Attachment.messages: a
 * claim of a message deleted since (claims are kept when a message goes) is left out. Reads each
 * upload's claims, then the claimed messages (one batch read per 100).
 */
const messageIdsOf = async (realmId: number, uploads: OwnUpload[]): Promise<number[][]> => {
  const claimed: number[][] = new Array(uploads.length);
  for (let i = 0; i < uploads.length; i += CLAIM_READ_CONCURRENCY) {
    const chunk = uploads.slice(i, i + CLAIM_READ_CONCURRENCY);
    const ids = await Promise.all(chunk.map((u) => attachmentsStore.listClaimedMessageIds(u.pathId)));
    ids.forEach((list, j) => (claimed[i + j] = list));
  }
  const all = [...new Set(claimed.flat())];
  const existing = new Set((await messagesStore.getMessagesByIds(realmId, all)).map((m) => m.id));
  return claimed.map((list) => list.filter((id) => existing.has(id)).sort((a, b) => a - b));
};

/** The owner's clients learn of a change to one of their uploads, with the organization's upload space after it. */
const notifyAttachmentUpdate = async (
  realmId: number,
  ownerId: number,
  change: { op: 'add' | 'update'; attachment: ApiAttachment } | { op: 'remove'; attachment: { id: number } },
): Promise<void> => {
  const uploadSpaceUsed = await attachmentsStore.getUploadSpaceUsed(realmId);
  await sendEvent(realmId, { type: 'attachment', ...change, upload_space_used: uploadSpaceUsed }, { users: [ownerId] });
};

/** After an upload is stored: `attachment` add, with no messages yet, to the uploader's queues. */
export const notifyAttachmentAdded = (user: User, upload: OwnUpload): Promise<void> =>
  notifyAttachmentUpdate(user.realmId, user.id, { op: 'add', attachment: toApiAttachment(upload, []) });

/**
 * After a message that links uploads is stored: `attachment` update, with the messages that now
 * link the file, to each file's owner (upstream sends it to the sender, who is the owner but for a
 * file someone shared onward; the event describes the owner's file list). Files uploaded before
 * attachments had ids are in no list: nothing is sent for them. Reads each file's partition and
 * its claimed messages.
 */
export const notifyAttachmentsClaimed = async (realmId: number, pathIds: string[]): Promise<void> => {
  for (const pathId of pathIds) {
    const found = await attachmentsStore.getAttachmentWithClaims(pathId);
    if (!found || found.attachment.id === 0) continue;
    const { attachment } = found;
    const [messageIds] = await messageIdsOf(realmId, [attachment]);
    await notifyAttachmentUpdate(realmId, attachment.ownerId, { op: 'update', attachment: toApiAttachment(attachment, messageIds) });
  }
};

/**
 * GET /attachments: every file the caller uploaded, in id order, each with the messages that link
 * it, and the bytes of every upload of the organization (upstream's upload_space_used). Reads the
 * caller's partition, each upload's claims and the claimed messages; writes nothing.
 */
export const listOwnAttachments = async (user: User): Promise<{ attachments: ApiAttachment[]; uploadSpaceUsed: number }> => {
  const [uploads, uploadSpaceUsed] = await Promise.all([
    attachmentsStore.listUploadsOfUser(user.id),
    attachmentsStore.getUploadSpaceUsed(user.realmId),
  ]);
  const messageIds = await messageIdsOf(user.realmId, uploads);
  return { attachments: uploads.map((u, i) => toApiAttachment(u, messageIds[i])), uploadSpaceUsed };
};

/**
 * DELETE /attachments/{id}: one of the caller's own uploads (accessOwnAttachment, else "Invalid
 * attachment"). Deletes the record and the owner's copy
 * (conditional: of two concurrent deletes the loser gets "Invalid attachment") and takes its size
 * off the organization's upload space, then the file's bytes in S3 and its claims (a crash in
 * between leaves bytes nobody can reach, never a record without its file), then sends
 * `attachment` remove to the owner's queues. Messages that link the file keep their text; the
 * link then answers 404, as upstream's.
 */
export const doRemoveAttachment = async (user: User, attachmentId: number): Promise<void> => {
  const upload = await accessOwnAttachment(user, attachmentId);
  await retryLostRaces(async () => {
    const loss = await attachmentsStore.deleteAttachment(user.realmId, upload);
    if (loss?.lost === 'conflict') throw new LostRaceError();
    if (loss) throw new BadRequestError('Invalid attachment');
  });
  await filesStore.deleteFile(upload.pathId);
  await attachmentsStore.deleteClaims(upload.pathId, await attachmentsStore.listClaimedMessageIds(upload.pathId));
  await notifyAttachmentUpdate(user.realmId, user.id, { op: 'remove', attachment: { id: upload.id } });
};
