// A send whose delivery is interrupted after the message is stored: the message keeps its pending
// delivery (lib/actions/messages/delivery.ts) until another process finishes it, and every queue
// gets the message event exactly once, however much the first delivery did. Faults come from the
// proxy in front of DynamoDB Local (test/helpers/dynamo-faults.ts); the main table's stream is
// DynamoDB Local's own, read as the deliveryRecovery function's event source would.
import { handler as send } from '../../../functions/messages/send';
import { handler as deliveryRecovery } from '../../../functions/jobs/delivery-recovery';
import { REQUEST_LEASE_MS, doMessageFanout, doReplayDeadLetter, type StreamRecord } from '../../../lib/actions/messages/delivery';
import { advanceClock } from '../../../lib/clock';
import { GAP_DEADLINE_MS } from '../../../lib/events/queues';
import { holdJobs, settleJobs } from '../../../lib/store/jobs';
import * as messagesStore from '../../../lib/store/messages';
import { mainStreamArn, readStream, type ShardPosition } from '../../../lib/store/table-stream';
import { call, expectSuccess } from '../../helpers/api';
import { startDynamoFaults, type DynamoFaults, type FaultRequest } from '../../helpers/dynamo-faults';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { freshTables } from '../../helpers/tables';

const REALM = 2;
/** Denmark's subscribers: Hamlet (10, the sender), Iago (11), Othello (12) and others; Cordelia (8) is not one. */
const QUEUE_OWNERS = [8, 10, 11, 12];

/** A write of a message event (not a tombstone) to the events table. */
const isEventWrite = (req: FaultRequest) => req.op === 'PutItem' && req.body.Item?.event !== undefined;

let sent = 0;
const sendToDenmark = (opts: { settleJobs?: boolean } = {}) =>
  call(send, {
    method: 'POST',
    path: '/messages',
    as: 'hamlet@zulip.com',
    params: { type: 'stream', to: 1, topic: 'durable', content: `durable ${(sent += 1)}` },
    ...opts,
  });

/** What each queue received: `message <id>` per message event. */
const messagesReceived = async (queues: Awaited<ReturnType<typeof openQueuesOf>>) => {
  // Numbers allocated by the failed writes are skipped at their deadline.
  advanceClock(GAP_DEADLINE_MS);
  const received = await drainQueues(queues);
  return Object.fromEntries(
    Object.entries(received).map(([user, events]) => [
      user,
      events.filter((e) => e.type === 'message').map((e) => `message ${e.message.id}`),
    ]),
  );
};

/** The main table's stream records since `from` (all of them the first time), and where to read on. */
const streamSince = async (from: ShardPosition[] | 'all') => readStream((await mainStreamArn())!, from);

describe('a send whose delivery is interrupted', () => {
  let faults: DynamoFaults | undefined;
  beforeAll(async () => {
    // More shards than Denmark has subscribers: each recipient's event is an append of its own, so
    // a delivery can stop between two of them.
    process.env.EVENTS_REALM_SHARDS = '20';
    // This file reads the main table's stream, which the other files' tables leave out.
    await freshTables(process.env.TABLE_PREFIX!, { streams: true });
    // The first message of the topic: later sends make the same writes.
    expectSuccess(await sendToDenmark());
  });
  afterAll(() => {
    delete process.env.EVENTS_REALM_SHARDS;
  });
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
    delete process.env.MESSAGE_FANOUT_FUNCTION;
    delete process.env.LAMBDA_ENDPOINT;
  });

  it('answers with the stored message when its events fail part way, and its job sends each queue the rest once', async () => {
    const queues = await openQueuesOf(QUEUE_OWNERS);
    holdJobs();
    faults = await startDynamoFaults();
    // Two recipients' events are written; every later event write fails, retries included.
    faults.inject({ fault: 'error500', when: isEventWrite, skip: 2, times: Infinity });
    const result = await sendToDenmark({ settleJobs: false });
    const { id } = expectSuccess(result);
    await faults.stop();
    faults = undefined;
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))?.pendingDelivery).toMatchObject({
      rowsWritten: true,
      attempts: 1,
    });
    await settleJobs();
    expect(await messagesReceived(queues)).toEqual({ 8: [], 10: [`message ${id}`], 11: [`message ${id}`], 12: [`message ${id}`] });
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))?.pendingDelivery).toBeUndefined();
  }, 120_000);

  it('is finished by deliveryRecovery from the table stream once the request lease has run out, when its job cannot start', async () => {
    const { next: from } = await streamSince('all');
    const queues = await openQueuesOf(QUEUE_OWNERS);
    // The job's function cannot be reached: as if the request died before it handed the delivery on.
    process.env.MESSAGE_FANOUT_FUNCTION = 'no-such-function';
    process.env.LAMBDA_ENDPOINT = 'http://127.0.0.1:9';
    faults = await startDynamoFaults();
    faults.inject({ fault: 'error500', when: isEventWrite, skip: 1, times: Infinity });
    const { id } = expectSuccess(await sendToDenmark());
    await faults.stop();
    faults = undefined;
    delete process.env.MESSAGE_FANOUT_FUNCTION;
    delete process.env.LAMBDA_ENDPOINT;
    const { records } = await streamSince(from);
    const inserted = records.filter((r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.pendingDelivery !== undefined);
    expect(inserted.map((r) => Number(r.dynamodb!.NewImage!.id.N))).toEqual([id]);

    // While the lease lasts, nobody else takes the delivery over.
    await doMessageFanout({ realmId: REALM, messageId: id });
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))?.pendingDelivery).toMatchObject({ attempts: 1 });

    advanceClock(REQUEST_LEASE_MS);
    await deliveryRecovery({ Records: records as StreamRecord[] });
    expect(await messagesReceived(queues)).toEqual({ 8: [], 10: [`message ${id}`], 11: [`message ${id}`], 12: [`message ${id}`] });
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))?.pendingDelivery).toBeUndefined();

    // The same records again (Lambda retrying a batch): nothing more is sent.
    await deliveryRecovery({ Records: records as StreamRecord[] });
    expect(await messagesReceived(queues)).toEqual({ 8: [], 10: [], 11: [], 12: [] });
  }, 120_000);

  it('leaves a delivered message alone when its stream record reaches deliveryRecovery', async () => {
    const { next: from } = await streamSince('all');
    const queues = await openQueuesOf(QUEUE_OWNERS);
    const { id } = expectSuccess(await sendToDenmark());
    const { records } = await streamSince(from);
    expect(records.some((r) => r.eventName === 'INSERT' && Number(r.dynamodb?.NewImage?.id?.N) === id)).toBe(true);
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))?.pendingDelivery).toBeUndefined();
    advanceClock(REQUEST_LEASE_MS);
    await deliveryRecovery({ Records: records as StreamRecord[] });
    expect(await messagesReceived(queues)).toEqual({ 8: [], 10: [`message ${id}`], 11: [`message ${id}`], 12: [`message ${id}`] });
  }, 120_000);

  it('replays dead-letter entries of both kinds: a failed job run and a failed stream batch', async () => {
    const { next: from } = await streamSince('all');
    const queues = await openQueuesOf(QUEUE_OWNERS);
    process.env.MESSAGE_FANOUT_FUNCTION = 'no-such-function';
    process.env.LAMBDA_ENDPOINT = 'http://127.0.0.1:9';
    faults = await startDynamoFaults();
    faults.inject({ fault: 'error500', when: isEventWrite, times: Infinity });
    const first = expectSuccess(await sendToDenmark()).id as number;
    const second = expectSuccess(await sendToDenmark()).id as number;
    await faults.stop();
    faults = undefined;
    advanceClock(REQUEST_LEASE_MS);
    // Lambda's record of an asynchronous invocation that failed every attempt.
    const jobEntry = { requestContext: { condition: 'RetriesExhausted' }, requestPayload: { realmId: REALM, messageId: first } };
    expect(await doReplayDeadLetter(JSON.stringify(jobEntry))).toEqual({ messages: 1 });
    // Lambda's record of a stream batch that failed every attempt: where it is in the stream.
    const { records } = await streamSince(from);
    const ours = records.filter((r) => Number(r.dynamodb?.NewImage?.id?.N) === second);
    const streamEntry = {
      DDBStreamBatchInfo: {
        streamArn: await mainStreamArn(),
        shardId: from[0]?.shardId ?? (await streamSince('all')).next[0].shardId,
        startSequenceNumber: ours[0].dynamodb!.SequenceNumber,
        endSequenceNumber: ours[ours.length - 1].dynamodb!.SequenceNumber,
      },
    };
    expect((await doReplayDeadLetter(JSON.stringify(streamEntry))).messages).toBeGreaterThanOrEqual(1);
    expect(await messagesReceived(queues)).toEqual({
      8: [],
      10: [`message ${first}`, `message ${second}`],
      11: [`message ${first}`, `message ${second}`],
      12: [`message ${first}`, `message ${second}`],
    });
    await expect(doReplayDeadLetter('{"something":"else"}')).rejects.toThrow('not an entry of the delivery dead-letter queue');
  }, 120_000);
});
