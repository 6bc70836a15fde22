// What missed-message emails add to a send (issue 41), against DynamoDB Local and the local SES
// store: Iago sends channel messages to Denmark that notify nobody by email, then the same
// number that mention King Hamlet, who is offline (no event queue) with email notifications on
// (upstream's defaults); then the clock passes his batching period and his batch's delivery check
// sends one email for them all. Each row is per message, the jobs it starts included (run in this
// process, as a Lambda invocation would run them after the response). Run by `npm run bench`
// (scripts/bench.ts), or alone: `npm run bench emails`.
import { JOBS } from '../lib/actions/jobs';
import { sendMessage } from '../lib/actions/messages/send';
import { advanceClock, resetClock } from '../lib/clock';
import * as realmsStore from '../lib/store/realms';
import { fireDueSchedules } from '../lib/store/schedules';
import { defineJob, runJobsInProcess, settleJobs } from '../lib/store/jobs';
import * as usersStore from '../lib/store/users';
import { settingsOfUser } from '../lib/models/user-settings';
import { benchChannelSend, costOf, measure, printTable } from './bench-util';
import { startLocalSes } from './local-ses';

const REALM = 2;
const IAGO = 11;
const HAMLET = 10;
const MESSAGES = Number(process.env.BENCH_EMAIL_MESSAGES ?? 20);

/** The emails the local SES store holds for `address`. */
const emailsTo = async (endpoint: string, address: string): Promise<number> => {
  const { emails } = (await (await fetch(`${endpoint}/store`)).json()) as { emails: { destination: { to: string[] } }[] };
  return emails.filter((e) => e.destination.to.some((to) => to.includes(address))).length;
};

export const benchEmails = async (): Promise<void> => {
  const ses = await startLocalSes();
  // The scheduledDelivery job runs as always, counted: a send that notifies nobody must start none.
  const real = await JOBS.scheduledDelivery.load();
  let started = 0;
  defineJob('scheduledDelivery', async (payload: never) => {
    started += 1;
    await real(payload);
  });
  try {
    const realm = (await realmsStore.get(REALM))!;
    const [iago, hamlet] = await Promise.all([usersStore.get(REALM, IAGO), usersStore.get(REALM, HAMLET)]);
    const { enable_offline_email_notifications: on, email_notifications_batching_period_seconds: period } = settingsOfUser(hamlet!);
    const send = (topic: string, content: (i: number) => string) => (i: number) =>
      sendMessage(iago!, realm, benchChannelSend('Denmark', topic, content(i))).then(() => settleJobs());

    const quiet = await measure(
      MESSAGES,
      send('bench quiet', (i) => `nothing for anyone's inbox ${i}`),
    );
    const quietStarts = started;
    started = 0;
    const mentioning = await measure(
      MESSAGES,
      send('bench mentions', (i) => `@**King Hamlet** have a look ${i}`),
    );
    const mentionStarts = started;
    const before = await emailsTo(ses.endpoint, hamlet!.email);
    advanceClock((Number(period) + 1) * 1000);
    const delivery = await costOf(async () => {
      await fireDueSchedules();
      await settleJobs();
    });
    const sent = (await emailsTo(ses.endpoint, hamlet!.email)) - before;

    console.log(
      `\n## emails: what missed-message emails add to a channel send (Denmark, ${MESSAGES} messages each; ` +
        `Hamlet offline, email notifications ${on ? 'on' : 'off'}, batching period ${period} s)\n`,
    );
    printTable([
      ['a channel message that notifies nobody by email', quiet],
      ['the same, mentioning an offline user (the missedEmailStart run included)', mentioning],
      [
        `their batch's delivery check, per message (${sent} email for ${MESSAGES})`,
        {
          ...delivery,
          requests: delivery.requests / MESSAGES,
          readUnits: delivery.readUnits / MESSAGES,
          writeUnits: delivery.writeUnits / MESSAGES,
          ms: delivery.ms / MESSAGES,
        },
      ],
    ]);
    console.log(
      `scheduledDelivery runs started: ${quietStarts} by the ${MESSAGES} messages that notify nobody, ${mentionStarts} by the ${MESSAGES} mentions`,
    );
  } finally {
    resetClock();
    runJobsInProcess(JOBS);
    await ses.stop();
    delete process.env.SES_ENDPOINT;
  }
};
