// Who may read an uploaded file and act on an attachment (upstream's validate_attachment_request
// and access_attachment_by_id).
import { BadRequestError, ApiError } from '../errors';
import { type OwnUpload, type Attachment, type AttachmentClaim } from '../models/attachment';
import { type User, isGuest } from '../models/user';
import * as attachmentsStore from '../store/attachments';
import * as messagesStore from '../store/messages';
import { MessageViewer } from './messages';

/**
 * Upstream's access_attachment_by_id with needs_owner: one of the caller's uploads. Another
 * user's file and an unknown id are the same 400 "Invalid attachment".
 */
export const accessOwnAttachment = async (user: User, attachmentId: number): Promise<OwnUpload> => {
  const upload = await attachmentsStore.getUploadOfUser(user.id, attachmentId);
  if (!upload) throw new BadRequestError('Invalid attachment');
  return upload;
};

/** Upstream's 404 for a file that does not exist, or is another organization's. */
export const fileNotFound = (): ApiError => new ApiError('File not found.', { statusCode: 404 });

const notAuthorized = (): ApiError => new ApiError('You are not authorized to view this file.', { statusCode: 403 });

/** Whether the viewer may read a message that linked the attachment (MessageViewer.canSee, upstream's has_message_access). */
const canReadClaim = async (viewer: MessageViewer, claim: AttachmentClaim): Promise<boolean> => {
  const { user } = viewer;
  if (claim.kind === 'direct') return viewer.canSee({ realmId: user.realmId, streamId: null }, claim.recipientIds.includes(user.id));
  const channel = await viewer.channel(claim.channelId);
  // Only a private channel with protected history asks whether the user received the message.
  const received =
    channel !== undefined && channel.inviteOnly && !channel.historyPublicToSubscribers
      ? (await messagesStore.getUserMessage(user.id, claim.messageId)) !== undefined
      : false;
  return viewer.canSee({ realmId: user.realmId, streamId: claim.channelId }, received);
};

/**
 * Upstream's validate_attachment_request for a user: the owner; any non-guest once a public
 * message linked it; anyone who may read a message that links it. Another organization's file
 * and a missing one look the same (404 "File not found."); a file the user may not read is 403
 * "You are not authorized to view this file.". Reads the attachment's partition (one query) and,
 * per claim until one grants access, the channel and the user's subscription. Writes nothing.
 */
export const accessAttachment = async (user: User, realmIdText: string, path: string): Promise<Attachment> => {
  const pathId = `${realmIdText}/${path}`;
  if (realmIdText !== String(user.realmId)) throw fileNotFound();
  const found = await attachmentsStore.getAttachmentWithClaims(pathId);
  if (!found || found.attachment.realmId !== user.realmId) throw fileNotFound();
  const { attachment, claims } = found;
  if (attachment.ownerId === user.id) return attachment;
  if (attachment.isRealmPublic && !isGuest(user)) return attachment;
  const viewer = new MessageViewer(user);
  for (const claim of claims) if (await canReadClaim(viewer, claim)) return attachment;
  throw notAuthorized();
};
