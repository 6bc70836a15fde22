// Benchmark of the weekly digest job (lib/actions/digests/send.ts) against DynamoDB Local and the
// local SES store: 'zulip' with digests on today, 1,000 generated members who have not been active
// (no presence), subscribed to Denmark, whose last days hold a few busy topics, and a channel
// created today. Prints the DynamoDB requests and capacity units of the whole day's run (every
// page's run included) per 1,000 users, and the emails sent. Run by `npm run bench`
// (scripts/bench.ts), or alone: `npm run bench digests`.
import { doSendDigests } from '../lib/actions/digests/send';
import { sendMessage } from '../lib/actions/messages/send';
import { nowSeconds } from '../lib/clock';
import { digestWeekday } from '../lib/models/digest';
import * as channelsStore from '../lib/store/channels';
import { batchPut } from '../lib/store/common';
import { settleJobs } from '../lib/store/jobs';
import * as realmsStore from '../lib/store/realms';
import * as usersStore from '../lib/store/users';
import { benchChannel, benchChannelSend, benchSubscription, costOf, printTable } from './bench-util';
import { startLocalSes } from './local-ses';
import { generatedMember } from './seed-people';

const REALM = 2;
const IAGO = 11;
const USERS = Number(process.env.BENCH_DIGEST_USERS ?? 1000);
const FIRST_USER = 300_000;
const NEW_CHANNEL = 93_000;
const TOPICS = ['launch', 'review', 'lunch', 'incident', 'hiring', 'offsite'];

export const benchDigests = async (): Promise<void> => {
  const ses = await startLocalSes();
  try {
    const realm = (await realmsStore.get(REALM))!;
    const iago = (await usersStore.get(REALM, IAGO))!;
    const [denmark] = await channelsStore.getChannelsByNames(REALM, ['Denmark']);
    // The traffic first, while Denmark has its few subscribers: the digest reads the channel's messages, not their rows.
    for (const [i, topic] of TOPICS.entries())
      for (let n = 0; n <= i; n += 1) await sendMessage(iago, realm, benchChannelSend('Denmark', topic, `${topic} update ${n}`));
    await settleJobs();
    const items = Array.from({ length: USERS }, (_, i) => {
      const user = generatedMember(FIRST_USER + i, `digestbench${i}@zulip.com`, `Digest Bench ${i}`);
      return [
        usersStore.buildUserItem(user),
        usersStore.buildEmailLockItem(user),
        channelsStore.buildSubscriptionItem(benchSubscription(REALM, user.id, denmark.id)),
      ];
    }).flat();
    const fresh = { ...benchChannel(REALM, NEW_CHANNEL, 'digest bench news'), dateCreated: nowSeconds() };
    await batchPut('main', [...items, channelsStore.buildChannelItem(fresh)], { concurrency: 8 });
    const properties = { ...realm.properties, digest_emails_enabled: true, digest_weekday: digestWeekday(nowSeconds()) };
    await realmsStore.put({ ...realm, properties });
    const accounts = (await usersStore.listOfRealm(REALM)).length;
    // Each run logs whom it sent digests to: counted here instead of printed (the local store lists only its newest 200).
    let sent = 0;
    const info = console.info;
    console.info = (line: unknown) => {
      const logged =
        typeof line === 'string' && line.startsWith('{"digest":"sent"') ? (JSON.parse(line) as { userIds: number[] }) : undefined;
      if (logged) sent += logged.userIds.length;
      else info(line);
    };
    const cost = await costOf(async () => {
      await doSendDigests({});
      await settleJobs();
    }).finally(() => (console.info = info));
    await realmsStore.put(realm);
    const per = 1000 / accounts;
    console.log(
      `\n## digests: the day's run of the sendDigests job ('zulip', ${accounts.toLocaleString('en-US')} accounts, ${sent} digests sent; cost per 1,000 accounts)\n`,
    );
    printTable([
      [
        'sendDigests day run, per 1,000 accounts',
        { requests: cost.requests * per, readUnits: cost.readUnits * per, writeUnits: cost.writeUnits * per, ms: cost.ms * per },
      ],
    ]);
  } finally {
    await ses.stop();
    delete process.env.SES_ENDPOINT;
  }
};
