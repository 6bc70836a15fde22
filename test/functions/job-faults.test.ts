// Each background job (push, messageFanout, messageMove) with a run of its DynamoDB calls failing,
// every way the fault proxy knows (test/helpers/dynamo-faults.ts): its first calls, or its first
// writes, throttled, answered 500, applied with the answer lost, or never answered. The job's runs
// that fail are retried as Lambda retries them (lib/store/jobs.ts: three runs); once the faults
// stop, its work is done exactly once and nothing is left half-done.
import { handler as sendHandler } from '../../functions/messages/send';
import { handler as updateHandler } from '../../functions/messages/update';
import { handler as settingsHandler } from '../../functions/settings/update';
import { doMessageFanout, type FanoutJob } from '../../lib/actions/messages/delivery';
import { doMessageMove, type MoveJob } from '../../lib/actions/messages/move';
import { doPushJob } from '../../lib/actions/push/job';
import { type PushJob } from '../../lib/models/push-job';
import { advanceClock } from '../../lib/clock';
import { GAP_DEADLINE_MS } from '../../lib/events/queues';
import * as editsStore from '../../lib/store/message-edits';
import { defineJob, holdJobs, releaseJobs, settleJobs, type JobName } from '../../lib/store/jobs';
import * as messagesStore from '../../lib/store/messages';
import { entityKeys } from '../../lib/store/keys';
import { batchGet } from '../../lib/store/common';
import { call, expectSuccess } from '../helpers/api';
import { startDynamoFaults, type DynamoFaults, type Fault, type FaultRequest } from '../helpers/dynamo-faults';
import { drainQueues, openQueuesOf } from '../helpers/events';
import { notificationsSince, notificationCount, registerPhone, usePushBouncer } from '../helpers/push';
import { storeMessage } from '../helpers/stored-messages';

usePushBouncer();

const REALM = 2;
const [CORDELIA, HAMLET, IAGO, OTHELLO] = [8, 10, 11, 12];
const FAULTS: Fault[] = ['throttle', 'error500', 'applyThenDrop', 'hang'];
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
/** The faulted requests: two runs' worth of one call's attempts at most, so the third run succeeds. */
const HITS = 6;
const PLACES = {
  'its first calls': () => true,
  'its first writes': (req: FaultRequest) => WRITES.has(req.op),
};

/** Each job's runs and failed runs while a test runs. */
const runs: Record<JobName, { runs: number; failed: number }> = {
  push: { runs: 0, failed: 0 },
  messageFanout: { runs: 0, failed: 0 },
  messageMove: { runs: 0, failed: 0 },
  outgoingWebhook: { runs: 0, failed: 0 },
  scheduledDelivery: { runs: 0, failed: 0 },
  realmExport: { runs: 0, failed: 0 },
  realmImport: { runs: 0, failed: 0 },
  sendDigests: { runs: 0, failed: 0 },
};
const counted =
  <P>(name: JobName, run: (payload: P) => Promise<void>) =>
  async (payload: P): Promise<void> => {
    runs[name].runs += 1;
    try {
      await run(payload);
    } catch (error) {
      runs[name].failed += 1;
      throw error;
    }
  };

let faults: DynamoFaults | undefined;
let phoneKeys: Record<string, string> = {};

beforeAll(async () => {
  // Each failed run logs its error (lib/store/jobs.ts): dozens here, all expected.
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  // A request never answered fails its attempt soon (the SDK retries it), as in AWS after 1.5 s.
  process.env.DYNAMODB_REQUEST_TIMEOUT_MS = '300';
  process.env.MESSAGE_INLINE_RECIPIENTS = '2';
  process.env.MOVE_INLINE_MESSAGES = '2';
  process.env.MOVE_JOB_MESSAGES = '2';
  defineJob<PushJob>('push', counted('push', doPushJob));
  defineJob<FanoutJob>('messageFanout', counted('messageFanout', doMessageFanout));
  defineJob<MoveJob>('messageMove', counted('messageMove', doMessageMove));
  const phone = await registerPhone('hamlet@zulip.com');
  phoneKeys = { [phone.token_id]: phone.push_key };
  // Only the push job may meet the faults: no missed-message email job for Hamlet's direct messages.
  expectSuccess(
    await call(settingsHandler, {
      method: 'PATCH',
      path: '/settings',
      as: 'hamlet@zulip.com',
      params: { enable_offline_email_notifications: 'false' },
    }),
  );
});

afterAll(() => {
  jest.restoreAllMocks();
  for (const name of ['DYNAMODB_REQUEST_TIMEOUT_MS', 'MESSAGE_INLINE_RECIPIENTS', 'MOVE_INLINE_MESSAGES', 'MOVE_JOB_MESSAGES'])
    delete process.env[name];
  defineJob('push', doPushJob);
  defineJob('messageFanout', doMessageFanout);
  defineJob('messageMove', doMessageMove);
});

beforeEach(() => {
  for (const r of Object.values(runs)) Object.assign(r, { runs: 0, failed: 0 });
});

afterEach(async () => {
  await faults?.stop();
  faults = undefined;
  releaseJobs();
  await settleJobs();
});

/**
 * Runs the jobs that `request` starts (held until then) under `HITS` faults of kind `fault` on the
 * requests `where` picks, then without faults; every job must end well within its three runs.
 */
const underFaults = async <T>(request: () => Promise<T>, fault: Fault, where: (req: FaultRequest) => boolean): Promise<T> => {
  holdJobs();
  const out = await request();
  faults = await startDynamoFaults();
  faults.inject({ fault, when: where, times: HITS });
  releaseJobs();
  await settleJobs();
  expect(faults.dealt()).toHaveLength(HITS);
  await faults.stop();
  faults = undefined;
  return out;
};

let n = 0;

/** Sends a message and answers its result, leaving its jobs held. */
const sendAs = async (as: string, params: Record<string, unknown>) =>
  expectSuccess(await call(sendHandler, { method: 'POST', path: '/messages', as, params, settleJobs: false }));

describe.each(FAULTS)('the push job with %s faults', (fault) => {
  it.each(Object.keys(PLACES))(
    'notifies the idle recipient once, and records it sent, when %s fail',
    async (place) => {
      const before = await notificationCount();
      const { id } = await underFaults(
        () => sendAs('iago@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET]), content: `push ${(n += 1)}` }),
        fault,
        PLACES[place as keyof typeof PLACES],
      );
      expect(runs.push.failed).toBeGreaterThanOrEqual(1);
      const sent = (await notificationsSince(before, phoneKeys)).flatMap((x) => x.pushRequests.map((r) => r.decrypted));
      expect(sent).toEqual([expect.objectContaining({ user_id: HAMLET, message_id: id })]);
      const [record] = await batchGet('main', [entityKeys.pushNotified(HAMLET, id as number)], { consistent: true });
      expect(record).toMatchObject({ claimedBy: expect.any(String), sentAt: expect.any(Number) });
    },
    60_000,
  );
});

describe.each(FAULTS)('the messageFanout job with %s faults', (fault) => {
  it.each(Object.keys(PLACES))(
    "sends each recipient's queue the message once, and ends the delivery, when %s fail",
    async (place) => {
      const queues = await openQueuesOf([CORDELIA, HAMLET, IAGO, OTHELLO]);
      const { id } = await underFaults(
        () => sendAs('hamlet@zulip.com', { type: 'stream', to: 1, topic: 'fanout faults', content: `fanout ${(n += 1)}` }),
        fault,
        PLACES[place as keyof typeof PLACES],
      );
      expect(runs.messageFanout.runs).toBeGreaterThanOrEqual(1);
      // Numbers allocated by failed event writes are skipped at their deadline.
      advanceClock(GAP_DEADLINE_MS);
      const received = await drainQueues(queues);
      const messages = (user: number) => received[user].filter((e) => e.type === 'message').map((e) => e.message.id);
      expect([CORDELIA, HAMLET, IAGO, OTHELLO].map(messages)).toEqual([[], [id], [id], [id]]);
      expect((await messagesStore.getMessage(REALM, id as number, { consistent: true }))?.pendingDelivery).toBeUndefined();
      expect(await messagesStore.getUserMessagesByIds(OTHELLO, [id as number])).toHaveLength(1);
    },
    60_000,
  );
});

describe.each(FAULTS)('the messageMove job with %s faults', (fault) => {
  it.each(Object.keys(PLACES))(
    'moves each message of the topic once, with one edit and one event each, when %s fail',
    async (place) => {
      const topic = `move faults ${(n += 1)}`;
      const stored = [];
      for (let i = 0; i < 5; i += 1) stored.push(await storeMessage({ sender: i % 2 === 0 ? HAMLET : OTHELLO, channelId: 1, topic }));
      const ids = stored.map((m) => m.id);
      const queues = await openQueuesOf([OTHELLO], { capabilities: { empty_topic_name: true } });
      await underFaults(
        async () =>
          expectSuccess(
            await call(updateHandler, {
              method: 'PATCH',
              path: `/messages/${ids[0]}`,
              as: 'hamlet@zulip.com',
              params: { topic: `${topic} moved`, propagate_mode: 'change_all', send_notification_to_old_thread: false },
              pathParameters: { message_id: String(ids[0]) },
              settleJobs: false,
            }),
          ),
        fault,
        PLACES[place as keyof typeof PLACES],
      );
      expect(runs.messageMove.runs).toBeGreaterThanOrEqual(1);
      const moved = await editsStore.getEditableMessages(REALM, ids);
      expect(moved.map((m) => [m.id, m.topic, m.editHistory?.length])).toEqual(ids.map((id) => [id, `${topic} moved`, 1]));
      advanceClock(GAP_DEADLINE_MS);
      const events = (await drainQueues(queues))[OTHELLO];
      const updated = events.filter((e) => e.type === 'update_message').flatMap((e) => e.message_ids as number[]);
      expect(updated.sort((a, b) => a - b)).toEqual(ids);
      expect(await editsStore.listMessageIdsOfTopic(1, topic)).toEqual([]);
    },
    60_000,
  );
});
