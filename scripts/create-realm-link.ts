// `npm run create-realm-link`: prints a one-time link that opens the new-organization page (as
// upstream's generate_realm_creation_link), valid 7 days. It reaches DynamoDB as `npm run seed`
// does (DYNAMODB_ENDPOINT, TABLE_PREFIX; `npm start` prints its endpoint) and links to
// EXTERNAL_URL (http://localhost:3000 by default).
import { config } from '../lib/config';
import { doCreateRealmCreationKey, realmCreationUrl, REALM_CREATION_LINK_VALIDITY_DAYS } from '../lib/actions/way-in/create-realm';
import { waitForDynamo } from './local-dynamo';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess } from '../lib/store/jobs';

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  await waitForDynamo();
  const key = await doCreateRealmCreationKey();
  console.log(
    `Please visit the following secure single-use link to create a new organization (valid ${REALM_CREATION_LINK_VALIDITY_DAYS} days):`,
  );
  console.log(realmCreationUrl(config.externalUrl(), key));
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
