// Uploaded files ("attachments", as upstream calls them): the size limit, how a file's path id
// and URL are made from its name, which MIME types a browser may show inline, and how a message's
// content links uploads. Pure rules shared by the upload endpoints and the send path.
import { randomBytes, randomInt } from 'node:crypto';

/**
 * The largest file POST /user_uploads accepts, in MiB, as register's max_file_upload_size_mib.
 * A Lambda request is at most 6 MB and API Gateway hands a multipart body to Lambda base64-encoded
 * (4/3 of its size): 4 MiB of file is 5.6 MB encoded, leaving room for the multipart framing and
 * the rest of the event. A larger body never reaches the handler (API Gateway answers 413).
 */
export const MAX_FILE_UPLOAD_SIZE_MIB = 4;
export const MAX_FILE_UPLOAD_SIZE_BYTES = MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024;

/** How long a temporary (unauthenticated) file URL stays valid, as upstream's default. */
export const TEMPORARY_URL_VALIDITY_SECONDS = 60;

/** A file part of a multipart request, as the body parser hands it over. */
export type UploadedFile = { filename: string; contentType: string; content: Buffer };

/** An uploaded file, and what upstream's Attachment row says about who may read it. */
export type Attachment = {
  /** Upstream's Attachment.id (GET /attachments, DELETE /attachments/{id}); 0 for a file uploaded before ids were kept. */
  id: number;
  /** `<realm_id>/<xx>/<random>/<sanitized name>`: the S3 key and the URL path after /user_uploads/. */
  pathId: string;
  realmId: number;
  ownerId: number;
  /** The stored (sanitized) file name. */
  name: string;
  size: number;
  contentType: string;
  /** Seconds since the epoch. */
  createTime: number;
  /** Linked from a message in a public channel (any non-guest member may read it). */
  isRealmPublic: boolean;
  /** Linked from a message in a web-public channel. */
  isWebPublic: boolean;
};

/** What the owner's partition keeps of each of their uploads, to list them and find one by id. */
export type OwnUpload = Pick<Attachment, 'id' | 'pathId' | 'ownerId' | 'name' | 'size' | 'createTime'>;

/** An attachment as GET /attachments and the `attachment` events show it (feature level 472: `message_ids`). */
export type ApiAttachment = { id: number; name: string; path_id: string; size: number; create_time: number; message_ids: number[] };

export const toApiAttachment = (upload: OwnUpload, messageIds: number[]): ApiAttachment => ({
  id: upload.id,
  name: upload.name,
  path_id: upload.pathId,
  size: upload.size,
  create_time: upload.createTime,
  message_ids: messageIds,
});

/** One message that links an attachment, with the facts the read rule needs about where it was sent. */
export type AttachmentClaim =
  | { pathId: string; messageId: number; kind: 'channel'; channelId: number }
  | { pathId: string; messageId: number; kind: 'direct'; recipientIds: number[] };

/** Upstream's MAX_FILE_NAME_LENGTH: a stored name is at most 255 bytes (a Linux path component). */
const MAX_FILE_NAME_BYTES = 255;

/** The longest start of `text` within `maxBytes` bytes of UTF-8, never cutting a character. */
const utf8Prefix = (text: string, maxBytes: number): string => {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
};

/**
 * Upstream's truncate_file_name: a name over 255 bytes keeps its extension (from the last dot, as
 * os.path.splitext, unless the extension alone fills the limit) and loses the end of its stem.
 */
const truncateFileName = (name: string): string => {
  if (Buffer.byteLength(name, 'utf8') <= MAX_FILE_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const split = dot > 0 && !/^\.+$/.test(name.slice(0, dot));
  let [stem, ext] = split ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  if (Buffer.byteLength(ext, 'utf8') >= MAX_FILE_NAME_BYTES) [stem, ext] = [name, ''];
  return utf8Prefix(stem, MAX_FILE_NAME_BYTES - Buffer.byteLength(ext, 'utf8')) + ext;
};

/**
 * Upstream's sanitize_name: NFKC-normalized, anything but word characters, spaces, dots and
 * dashes dropped, runs of spaces and dashes become one dash, then at most 255 bytes (so a path id
 * fits S3's 1024-byte object keys and DynamoDB's keys); a name that would be empty, `.` or `..`
 * becomes `uploaded-file`.
 */
export const sanitizeFileName = (raw: string): string => {
  const dot = raw.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [raw.slice(0, dot), raw.slice(dot)] : [raw, ''];
  const clean = (s: string): string =>
    s
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
      .trim()
      .replace(/[-\s]+/g, '-');
  const name = truncateFileName(clean(stem) + clean(ext));
  return name === '' || name === '.' || name === '..' || /^\.+$/.test(name) ? 'uploaded-file' : name;
};

/** A new path id, shaped as upstream's: realm id, a random byte in hex, 18 random bytes, the name. */
export const newPathId = (realmId: number, name: string): string =>
  [String(realmId), randomInt(0, 256).toString(16), randomBytes(18).toString('base64url'), name].join('/');

/** The URL of an upload, relative to the organization's URL: each path segment percent-encoded. */
export const uploadUrl = (pathId: string): string => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

/** Upstream's INLINE_MIME_TYPES: what a browser may render in place; anything else downloads. */
const INLINE_MIME_TYPES = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'audio/ogg',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'text/plain',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
]);

export const isInlineMimeType = (contentType: string): boolean => INLINE_MIME_TYPES.has(contentType.split(';')[0].trim().toLowerCase());

/** The Content-Disposition of a served file (RFC 6266; RFC 8187 for a non-ASCII name), as upstream. */
export const contentDisposition = (name: string, inline: boolean): string => {
  const kind = inline ? 'inline' : 'attachment';
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return `${kind}; filename="${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(name)}`;
};

/**
 * The path ids of this organization's uploads that a message's content links, as upstream's
 * get_attachment_path_ids finds them: links to `/user_uploads/<realm_id>/<path>`, relative or on
 * any host, percent-decoded, each once. Links into another organization are ignored.
 */
export const attachmentPathIdsIn = (content: string, realmId: number): string[] => {
  const found = new Set<string>();
  const pattern = /\/user_uploads\/(\d+\/[^\s)\]>"'?#]+)/g;
  for (const match of content.matchAll(pattern)) {
    let pathId: string;
    try {
      pathId = decodeURIComponent(match[1]);
    } catch {
      continue;
    }
    if (pathId.split('/')[0] === String(realmId)) found.add(pathId);
  }
  return [...found];
};
