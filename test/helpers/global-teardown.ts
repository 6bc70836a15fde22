import type { LocalDynamo } from '../../scripts/local-dynamo';

export default async (): Promise<void> => {
  await (globalThis as { __dynamo?: LocalDynamo }).__dynamo?.stop();
};
