// `npm run send-digests`: the day's run of the weekly digest emails, as EventBridge Scheduler's
// daily DigestSchedule starts it deployed, through the same job code (lib/actions/digests/send.ts):
// each organization whose digest_weekday is today emails its inactive people their digest, which
// development mode's /emails/ then lists. Uses the service's environment: DYNAMODB_ENDPOINT,
// TABLE_PREFIX and EXTERNAL_URL as `npm start` prints them for create-realm-link, and SES_ENDPOINT,
// the local SES store it printed (unset: AWS's SES).
import { JOBS } from '../lib/actions/jobs';
import { closeClients } from '../lib/store/client';
import { closeSesClient } from '../lib/store/emails';
import { runJobsInProcess, settleJobs, startJob } from '../lib/store/jobs';

const main = async (): Promise<void> => {
  runJobsInProcess(JOBS);
  try {
    await startJob('sendDigests', {});
    await settleJobs();
    console.log('digests sent');
  } finally {
    closeSesClient();
    closeClients();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
