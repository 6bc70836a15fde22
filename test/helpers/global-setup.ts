// Starts one DynamoDB Local (in memory, on a free port) and one local S3 store (with the uploads
// bucket) for the whole run. Test files create
// their own tables on it (per-file-tables.ts), so nothing needs to be running beforehand.
import { startDynamoLocal } from '../../scripts/local-dynamo';
import { startLocalS3 } from '../../scripts/local-s3';
import { closeClients } from '../../lib/store/client';

export default async (): Promise<void> => {
  // The SDK warns once per process that it will need Node 22 from 2027; tests run on Node 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoLocal();
  (globalThis as { __dynamo?: unknown }).__dynamo = dynamo;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  process.env.REQUEST_LOG = 'off';
  process.env.DEVELOPMENT_MODE = 'on';
  closeClients();
  (globalThis as { __s3?: unknown }).__s3 = await startLocalS3();
};
