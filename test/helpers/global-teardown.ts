import { rmSync } from 'node:fs';
import { stopSharedServices } from './e2e-shared';
import { shared } from './global-setup';

/** Stops what global-setup.ts started (once, whichever project's teardown runs first) and the e2e workers' services. */
export default async (): Promise<void> => {
  const state = shared();
  const { dynamo, s3, ses, bouncer, search } = state;
  state.search = undefined;
  state.bouncer = undefined;
  state.dynamo = undefined;
  state.s3 = undefined;
  state.ses = undefined;
  await stopSharedServices();
  await s3?.stop();
  await ses?.stop();
  await bouncer?.stop();
  await search?.stop();
  await dynamo?.stop();
  if (process.env.DYNAMODB_DB_DIR) rmSync(process.env.DYNAMODB_DB_DIR, { recursive: true, force: true });
};
