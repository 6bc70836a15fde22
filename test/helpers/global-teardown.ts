import type { LocalDynamo } from '../../scripts/local-dynamo';
import type { LocalS3 } from '../../scripts/local-s3';

export default async (): Promise<void> => {
  await (globalThis as { __s3?: LocalS3 }).__s3?.stop();
  await (globalThis as { __dynamo?: LocalDynamo }).__dynamo?.stop();
};
