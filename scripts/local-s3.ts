// The local S3-compatible store (s3rver, in this process, files in a temporary folder) that
// `npm start` and the tests run the upload handlers against, and the bucket they use. The
// handlers talk to it through the same @aws-sdk/client-s3 calls as to S3 (S3_ENDPOINT).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { config } from '../lib/config';
import { closeS3Client } from '../lib/store/files';

export type LocalS3 = { endpoint: string; stop: () => Promise<void> };

/**
 * s3rver keeps an object in files named after its key's segments, the last with a suffix
 * (`._S3rver_metadata.json`), so a segment near Linux's 255-byte name limit (an upload's name is up
 * to 255 bytes, as upstream's) fails there although S3 takes keys of 1024 bytes: long segments are
 * stored under their hash. Objects are only put and got by key (lib/store/files.ts), never listed.
 */
const MAX_STORED_SEGMENT_BYTES = 200;
type FilesystemStoreClass = { prototype: { getResourcePath: (this: unknown, bucket: string, key?: string, resource?: string) => string } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const filesystemStore = require('s3rver/lib/stores/filesystem') as FilesystemStoreClass;
const storedPath = filesystemStore.prototype.getResourcePath;
filesystemStore.prototype.getResourcePath = function (bucket, key = '', resource) {
  const segments = key
    .split('/')
    .map((segment) =>
      Buffer.byteLength(segment) > MAX_STORED_SEGMENT_BYTES ? createHash('sha256').update(segment).digest('hex') : segment,
    );
  return storedPath.call(this, bucket, segments.join('/'), resource);
};

/**
 * Starts s3rver on a free port of 127.0.0.1 with an empty bucket named config.uploadsBucket(),
 * and points this process at it (S3_ENDPOINT). s3rver checks only that a request's access key id
 * is one it knows (it does not verify v4 signatures), so the key this process signs with is
 * registered with it. `stop` closes it and deletes its folder.
 */
export const startLocalS3 = async (): Promise<LocalS3> => {
  const directory = mkdtempSync(join(tmpdir(), 'chat-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID || 'local';
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY || 'local';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as {
    DUMMY_ACCOUNT: { createKeyPair: (id: string, secret: string) => void };
  };
  DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  process.env.S3_ENDPOINT = endpoint;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: config.region(), credentials: { accessKeyId, secretAccessKey } });
  try {
    await client.send(new CreateBucketCommand({ Bucket: config.uploadsBucket() }));
  } finally {
    client.destroy();
  }
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      closeS3Client();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    })());
  return { endpoint, stop };
};
