// The only code that talks to S3: uploaded files' bytes, one object per attachment, keyed by its
// path id. The endpoint comes from S3_ENDPOINT (the local S3-compatible store) or is AWS's own;
// the same calls run in both.
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { config } from '../config';

let cached: { key: string; client: S3Client } | undefined;

/** The shared S3 client for the configured endpoint (rebuilt when the endpoint changes). */
const s3Client = (): S3Client => {
  const endpoint = config.s3Endpoint();
  const key = `${endpoint ?? ''}|${config.region()}`;
  if (cached?.key !== key) {
    cached?.client.destroy();
    // A local store serves buckets as paths (http://host:port/bucket/key), not as subdomains.
    cached = { key, client: new S3Client({ region: config.region(), ...(endpoint ? { endpoint, forcePathStyle: true } : {}) }) };
  }
  return cached.client;
};

/** Releases the client's sockets (scripts and tests that stop the store). */
export const closeS3Client = (): void => {
  cached?.client.destroy();
  cached = undefined;
};

/** Writes a file's bytes (a new path id each time, so never over another file). */
export const putFile = async (pathId: string, body: Buffer, contentType: string): Promise<void> => {
  await s3Client().send(new PutObjectCommand({ Bucket: config.uploadsBucket(), Key: pathId, Body: body, ContentType: contentType }));
};

/** Deletes a file's bytes (S3 answers success for a key that does not exist, so a retry is harmless). */
export const deleteFile = async (pathId: string): Promise<void> => {
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.uploadsBucket(), Key: pathId }));
};

/** A file's bytes, or undefined when the object does not exist. */
export const getFile = async (pathId: string): Promise<Buffer | undefined> => (await getFileWithContentType(pathId))?.body;

/** A file's bytes and stored content type, or undefined when the object does not exist. */
export const getFileWithContentType = (key: string): Promise<{ body: Buffer; contentType: string } | undefined> =>
  getObject(config.uploadsBucket(), key);

/**
 * A presigned GET URL of an object, valid for `expiresInSeconds`, that makes S3 answer it as a
 * download named `downloadName` (its Content-Disposition). Signing reads nothing: the URL works
 * only while the signer may GetObject, and only until it expires.
 */
export const signedDownloadUrl = (key: string, downloadName: string, expiresInSeconds: number): Promise<string> =>
  getSignedUrl(
    s3Client(),
    new GetObjectCommand({
      Bucket: config.uploadsBucket(),
      Key: key,
      ResponseContentDisposition: `attachment; filename="${downloadName.replace(/["\\\r\n]/g, '_')}"`,
    }),
    { expiresIn: expiresInSeconds },
  );

/** An incoming email SES receiving stored (the receipt rule's S3 action), or undefined when it is not there. */
export const getIncomingEmail = async (key: string): Promise<Buffer | undefined> =>
  (await getObject(config.incomingEmailBucket(), key))?.body;

const getObject = async (bucket: string, key: string): Promise<{ body: Buffer; contentType: string } | undefined> => {
  try {
    const out = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
    return { body, contentType: out.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

/** An object's bytes as a stream (an archive too large to hold), or undefined when it does not exist. */
export const openObjectStream = async (bucket: string, key: string): Promise<Readable | undefined> => {
  try {
    const out = await s3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return out.Body instanceof Readable ? out.Body : Readable.from(out.Body ? Buffer.from(await out.Body.transformToByteArray()) : []);
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
};

/** A job's own object in `bucket` (an import's checkpoint state next to its archive): written, read, listed, removed. */
export const putObject = async (bucket: string, key: string, body: Buffer): Promise<void> => {
  await s3Client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json' }));
};

export const getObjectBody = async (bucket: string, key: string): Promise<Buffer | undefined> => (await getObject(bucket, key))?.body;

export const deleteObject = async (bucket: string, key: string): Promise<void> => {
  await s3Client().send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
};

/** Every key under `prefix` in `bucket`, page by page. */
export const listObjectKeys = async (bucket: string, prefix: string): Promise<string[]> => {
  const out: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key !== undefined) out.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return out;
};
