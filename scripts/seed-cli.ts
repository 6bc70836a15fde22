// `npm run seed [-- --extra-users N]`: creates missing tables and seeds the configured endpoint.
// The seeded passwords derive from DEV_PASSWORD_SECRET, which must be set unless DEVELOPMENT_MODE=on
// (a deployed stage's accounts must not get the documented development passwords).
import { config } from '../lib/config';
import { createTables, waitForDynamo } from './local-dynamo';
import { seedDevRealm } from './seed';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess } from '../lib/store/jobs';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  const extraUsers = Number(argValue('--extra-users') ?? process.env.EXTRA_USERS ?? 0);
  // Refuse before creating anything.
  config.devPasswordSecret();
  await waitForDynamo();
  await createTables();
  const started = Date.now();
  const written = await seedDevRealm({ extraUsers, log: (line) => console.log(line) });
  console.log(`seeded ${written} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
