// `npm run deliver-email < reply.eml`: hands one raw RFC 822 email to the email gateway, as SES
// receiving does deployed (functions/jobs/receive-email.ts), through the same code
// (lib/actions/missed-emails/reply-by-email.ts): a reply to a missed-message email is posted as its
// recipient into the conversation; anything else is dropped with a log line. Uses the service's
// environment (DYNAMODB_ENDPOINT: the tables `npm start` serves).
import { JOBS } from '../lib/actions/jobs';
import { doReceiveEmail } from '../lib/actions/missed-emails/reply-by-email';
import { closeClients } from '../lib/store/client';
import { runJobsInProcess, settleJobs } from '../lib/store/jobs';

const readStdin = async (): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const main = async (): Promise<void> => {
  runJobsInProcess(JOBS);
  try {
    const id = await doReceiveEmail(await readStdin());
    await settleJobs();
    if (id === undefined) process.exitCode = 1;
    else console.log(`posted message ${id}`);
  } finally {
    closeClients();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
