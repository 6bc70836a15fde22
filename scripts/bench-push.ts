// Benchmark of push notifications against DynamoDB Local and the local push bouncer: what a send
// pays with push configured (its request, which only starts the `push` job, against the same send
// without push), and what the job pays per message (DynamoDB requests and units, time), for channels
// of 10, 1,000 and 10,000 subscribers: a message nobody is notified of, one mentioning an idle user
// with a registered device, one whose channel that user's own setting pushes, and a direct message.
import { randomBytes, randomUUID } from 'node:crypto';
import { doRegisterClientDevice } from '../lib/actions/push/devices';
import { checkRegisterPushDevice } from '../lib/actions/push/registration';
import { doPushJob } from '../lib/actions/push/job';
import { type PushJob } from '../lib/models/push-job';
import { newSubscription } from '../lib/models/channel';
import * as channelsStore from '../lib/store/channels';
import { dbMetrics } from '../lib/store/client';
import { batchPut } from '../lib/store/common';
import { defineJob, settleJobs } from '../lib/store/jobs';
import * as usersStore from '../lib/store/users';
import { channelOfSize, sendRequest } from './bench-messages';
import { percentile, printTable, type Cost } from './bench-util';
import { LOCAL_BOUNCER_PUBLIC_KEY, startLocalBouncer } from './local-bouncer';

const REALM = 2;
const HAMLET = 10;
const SENDS = Number(process.env.BENCH_PUSH_SENDS ?? 10);

type Split = { request: Cost & { p50: number; p99: number }; job: Cost };

/** Time spent in push jobs since the last measureSends began (the push job's runner, timed below). */
let pushJobMs = 0;
/** The push job as bench.ts runs it, timed. */
const timedPushJob = async (job: PushJob): Promise<void> => {
  const started = performance.now();
  try {
    await doPushJob(job);
  } finally {
    pushJobMs += performance.now() - started;
  }
};

/** `n` sends: the request's cost and latency, and the jobs' cost (run after each request answers). */
const measureSends = async (n: number, send: (i: number) => Promise<{ statusCode: number; body: string }>): Promise<Split> => {
  const times: number[] = [];
  const request = { requests: 0, readUnits: 0, writeUnits: 0 };
  const job = { requests: 0, readUnits: 0, writeUnits: 0, ms: 0 };
  pushJobMs = 0;
  for (let i = 0; i < n; i += 1) {
    dbMetrics.reset();
    const started = performance.now();
    const out = await send(i);
    times.push(performance.now() - started);
    if (out.statusCode !== 200) throw new Error(`send failed: ${out.body}`);
    const answered = dbMetrics.snapshot();
    await settleJobs();
    const settled = dbMetrics.snapshot();
    request.requests += answered.requests;
    request.readUnits += answered.readUnits;
    request.writeUnits += answered.writeUnits;
    job.requests += settled.requests - answered.requests;
    job.readUnits += settled.readUnits - answered.readUnits;
    job.writeUnits += settled.writeUnits - answered.writeUnits;
  }
  const per = (c: { requests: number; readUnits: number; writeUnits: number }) => ({
    requests: c.requests / n,
    readUnits: c.readUnits / n,
    writeUnits: c.writeUnits / n,
  });
  return {
    request: { ...per(request), ms: times.reduce((a, b) => a + b, 0) / n, p50: percentile(times, 50), p99: percentile(times, 99) },
    job: { ...per(job), ms: pushJobMs / n },
  };
};

export const benchPush = async (): Promise<void> => {
  console.log('\n## Push notifications: what a send and its `push` job pay\n');
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const hamlet = (await usersStore.get(REALM, HAMLET))!;
  const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
  const sizes: [number, number][] = [
    [10, 910001],
    [1000, 910002],
    [10000, 910003],
  ];
  for (const [size, channelId] of sizes) {
    await channelOfSize(channelId, size);
    await batchPut('main', [
      channelsStore.buildSubscriptionItem(newSubscription({ userId: HAMLET, channelId, realmId: REALM }, '#76ce90')),
    ]);
  }
  const bouncer = await startLocalBouncer();
  const saved = { url: process.env.PUSH_BOUNCER_URL, id: process.env.ZULIP_ORG_ID, key: process.env.ZULIP_ORG_KEY };
  const rows: [string, Cost & { p50?: number; p99?: number }][] = [];
  defineJob('push', timedPushJob);
  try {
    const channelSend = (channelId: number, content: string) => (i: number) =>
      sendRequest(auth, { type: 'stream', to: String(channelId), topic: `push ${i % 3}`, content });
    // Without push configured: the send's baseline, and its other jobs (the fan-out of the rows
    // past the inline recipients), which the push job's figures below leave out.
    const baseline = new Map<number, Cost>();
    for (const [size, channelId] of sizes) {
      await measureSends(2, channelSend(channelId, 'warm-up'));
      const { request, job } = await measureSends(SENDS, channelSend(channelId, 'no push configured'));
      rows.push([`request, no push configured, ${size.toLocaleString('en-US')} subscribers`, request]);
      baseline.set(size, job);
    }
    /** The push job's share of the jobs after a send: what they cost beyond the baseline's. */
    const pushShare = (size: number, job: Cost): Cost => {
      const base = baseline.get(size)!;
      return {
        requests: job.requests - base.requests,
        readUnits: job.readUnits - base.readUnits,
        writeUnits: job.writeUnits - base.writeUnits,
        ms: job.ms,
      };
    };
    Object.assign(process.env, {
      PUSH_BOUNCER_URL: bouncer.url,
      ZULIP_ORG_ID: randomUUID(),
      ZULIP_ORG_KEY: randomBytes(32).toString('hex'),
    });
    // Hamlet has a phone registered with the bouncer and no client open (idle).
    const device = await doRegisterClientDevice(hamlet);
    await checkRegisterPushDevice.authorize(hamlet)(device.deviceId, {
      pushKey: Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64'),
      pushKeyId: 1,
      tokenKind: 'fcm',
      tokenId: randomBytes(8).toString('base64'),
      bouncerPublicKey: LOCAL_BOUNCER_PUBLIC_KEY,
      encryptedPushRegistration: randomBytes(64).toString('base64'),
    });
    await settleJobs();
    for (const [size, channelId] of sizes) {
      const label = `${size.toLocaleString('en-US')} subscribers`;
      const quiet = await measureSends(SENDS, channelSend(channelId, 'nobody is notified'));
      rows.push([`request, push configured, ${label}`, quiet.request]);
      rows.push([`push job, channel message nobody is notified of, ${label}`, pushShare(size, quiet.job)]);
      const mention = await measureSends(SENDS, channelSend(channelId, 'ask @**King Hamlet**'));
      rows.push([`push job, mention of an idle user with a phone, ${label}`, pushShare(size, mention.job)]);
    }
    await usersStore.updateSettings(REALM, HAMLET, { enable_stream_push_notifications: true });
    for (const [size, channelId] of sizes) {
      const pushed = await measureSends(SENDS, channelSend(channelId, 'pushed by the user setting'));
      rows.push([
        `push job, channel pushed by the user's setting, ${size.toLocaleString('en-US')} subscribers`,
        pushShare(size, pushed.job),
      ]);
    }
    await usersStore.updateSettings(REALM, HAMLET, { enable_stream_push_notifications: false });
    const dm = await measureSends(SENDS, () =>
      sendRequest(auth, { type: 'direct', to: JSON.stringify([HAMLET]), content: 'a direct message' }),
    );
    rows.push(['request, direct message to an idle user with a phone', dm.request]);
    rows.push(['push job, direct message to an idle user with a phone (its only job)', dm.job]);
  } finally {
    defineJob('push', doPushJob);
    await bouncer.stop();
    for (const [name, value] of [
      ['PUSH_BOUNCER_URL', saved.url],
      ['ZULIP_ORG_ID', saved.id],
      ['ZULIP_ORG_KEY', saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  console.log(
    `Per send (${SENDS} sends each, after 2 to warm up; a push job's figures are what the jobs after the send cost beyond the same send's without push, its time is the push job's own run, the local bouncer's answers included):\n`,
  );
  printTable(rows);
};
