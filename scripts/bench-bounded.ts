// Benchmark of the requests whose reads must not grow with the organization (issue 21 item 5):
// subscribing and unsubscribing oneself (POST/DELETE /users/me/subscriptions), editing a
// message's content (PATCH /messages/{id}) without and with a mention, and sending a topic
// wildcard mention (@**topic**). Run it with `--extra-users 10000` (or EXTRA_USERS) to measure them
// in an organization of 10,000 more members: the figures per request should not move.
import { doSubscribe } from '../lib/actions/channels/subscriptions';
import { doUnsubscribe } from '../lib/actions/channels/unsubscribe';
import { checkUpdateMessage } from '../lib/actions/messages/edit';
import { sendMessage, type SendMessageRequest } from '../lib/actions/messages/send';
import { settleJobs } from '../lib/store/jobs';
import * as realmsStore from '../lib/store/realms';
import * as usersStore from '../lib/store/users';
import { benchChannelSend, costOf, percentile, printTable, type Cost } from './bench-util';

const REALM = 2;
const IAGO = 11;
const RUNS = Number(process.env.BENCH_BOUNDED_RUNS ?? 10);

/** `fn` measured `RUNS` times, each after an unmeasured `prepare`: mean cost and latency percentiles. */
const measureEach = async (
  prepare: () => Promise<unknown>,
  fn: (i: number) => Promise<unknown>,
): Promise<Cost & { p50: number; p99: number }> => {
  const costs: Cost[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await prepare();
    costs.push(await costOf(() => fn(i)));
  }
  const mean = (pick: (c: Cost) => number) => costs.reduce((sum, c) => sum + pick(c), 0) / costs.length;
  const times = costs.map((c) => c.ms);
  return {
    requests: mean((c) => c.requests),
    readUnits: mean((c) => c.readUnits),
    writeUnits: mean((c) => c.writeUnits),
    ms: mean((c) => c.ms),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
};

const channelSend = (content: string, topic: string): SendMessageRequest => benchChannelSend('Denmark', topic, content);

export const benchBounded = async (): Promise<void> => {
  const realm = (await realmsStore.get(REALM))!;
  const iago = (await usersStore.get(REALM, IAGO))!;
  const rows: [string, Cost & { p50: number; p99: number }][] = [];
  const nothing = () => Promise.resolve();

  const subscribe = () =>
    doSubscribe(realm, iago, {
      channels: [{ name: 'Scotland' }],
      principals: undefined,
      authorizationErrorsFatal: true,
      inviteOnly: false,
      historyPublicToSubscribers: undefined,
      announce: false,
      sendNewSubscriptionMessages: true,
    });
  const unsubscribe = () => doUnsubscribe(iago, ['Scotland'], undefined);
  rows.push(['POST /users/me/subscriptions (oneself, public channel)', await measureEach(unsubscribe, subscribe)]);
  rows.push(['DELETE /users/me/subscriptions (oneself, public channel)', await measureEach(subscribe, unsubscribe)]);

  const { id } = await sendMessage(iago, realm, channelSend('first version', 'bench edits'));
  await settleJobs();
  const edit = (content: string) => () =>
    checkUpdateMessage(realm, iago, id, {
      content,
      propagateMode: 'change_one',
      sendNotificationToNewThread: false,
      sendNotificationToOldThread: false,
    });
  rows.push(['PATCH /messages/{id} (content, no mention)', await measureEach(nothing, (i) => edit(`edit ${i}`)())]);
  rows.push(['PATCH /messages/{id} (content, @**King Hamlet**)', await measureEach(nothing, (i) => edit(`edit ${i} @**King Hamlet**`)())]);
  for (let i = 0; i < 20; i += 1) await sendMessage(iago, realm, channelSend(`filler ${i}`, 'bench edits'));
  rows.push([
    'POST /messages (@**topic** in a topic of 20+ messages)',
    await measureEach(nothing, (i) => sendMessage(iago, realm, channelSend(`ping ${i} @**topic**`, 'bench edits'))),
  ]);
  await settleJobs();

  const accounts = (await usersStore.listOfRealm(REALM)).length;
  console.log(`\n## bounded: per-request reads in an organization of ${accounts.toLocaleString('en-US')} accounts (${RUNS} runs each)\n`);
  printTable(rows);
};
