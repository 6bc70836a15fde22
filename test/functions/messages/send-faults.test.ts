// POST /messages when DynamoDB loses answers: whichever of the send's writes is applied but
// answered with a 500 (the SDK then retries it), the send answers success with the id of the one
// message stored, and every queue gets exactly one message event for it. Faults come from the
// proxy in front of DynamoDB Local (test/helpers/dynamo-faults.ts).
import { handler as send } from '../../../functions/messages/send';
import { handler as reactionAdd } from '../../../functions/reactions/add';
import { advanceClock } from '../../../lib/clock';
import { GAP_DEADLINE_MS } from '../../../lib/events/queues';
import * as messagesStore from '../../../lib/store/messages';
import { call, expectSuccess } from '../../helpers/api';
import { startDynamoFaults, type DynamoFaults, type FaultRequest } from '../../helpers/dynamo-faults';
import { drainQueues, openQueuesOf } from '../../helpers/events';

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const isWrite = (req: FaultRequest) => WRITES.has(req.op);
/** Denmark's subscribers: Hamlet (10, the sender), Iago (11), Othello (12) and others; Cordelia (8) is not one. */
const QUEUE_OWNERS = [8, 10, 11, 12];

let sent = 0;
const sendToDenmark = () =>
  call(send, {
    method: 'POST',
    path: '/messages',
    as: 'hamlet@zulip.com',
    params: { type: 'stream', to: 1, topic: 'faults', content: `lost answers ${(sent += 1)}` },
  });

describe('POST /messages under lost answers', () => {
  let faults: DynamoFaults | undefined;
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
  });

  it('stores one message and sends each queue one event for it, whichever of its writes is applied and its answer lost', async () => {
    // The first message of a topic also sets the channel's first message: record a later send's writes.
    expectSuccess(await sendToDenmark());
    faults = await startDynamoFaults();
    expectSuccess(await sendToDenmark());
    const writes = faults.log.filter(isWrite).map((e) => e.op);
    await faults.stop();
    faults = undefined;
    expect(writes.length).toBeGreaterThanOrEqual(4);
    for (let k = 0; k < writes.length; k += 1) {
      const queues = await openQueuesOf(QUEUE_OWNERS);
      faults = await startDynamoFaults();
      faults.inject({ fault: 'applyThenDrop', when: isWrite, skip: k });
      const result = await sendToDenmark();
      expect({ write: k, op: faults.dealt()[0]?.op, status: result.status, result: result.body.result }).toEqual({
        write: k,
        op: writes[k],
        status: 200,
        result: 'success',
      });
      await faults.stop();
      faults = undefined;
      const id = result.body.id as number;
      expect((await messagesStore.getMessage(2, id))?.content).toBe(`lost answers ${sent}`);
      // A stream number whose allocation was retried is skipped at its deadline.
      advanceClock(GAP_DEADLINE_MS);
      const received = await drainQueues(queues);
      const summary = Object.fromEntries(
        Object.entries(received).map(([user, events]) => [user, events.map((e) => `${e.type} ${e.message?.id}`)]),
      );
      expect({ write: k, summary }).toEqual({
        write: k,
        summary: { 8: [], 10: [`message ${id}`], 11: [`message ${id}`], 12: [`message ${id}`] },
      });
    }
  }, 180_000);
});

/** A seeded generator (mulberry32), so a failing mix of faults can be run again. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('POST /messages and reactions while DynamoDB misbehaves at random', () => {
  it("delivers every message and reaction exactly once to every queue, with every request's first attempt at risk", async () => {
    const queues = await openQueuesOf(QUEUE_OWNERS);
    const faults = await startDynamoFaults();
    const random = seeded(28);
    // The mix, on every request's first attempt (the SDK's retries then get through):
    // 10% throttled, 5% answered 500, 5% applied with the answer lost.
    const draw = (req: FaultRequest) => req.attempt === 1 && random() < 0.2;
    faults.inject({ fault: 'throttle', when: (req) => draw(req) && random() < 0.5, times: Infinity });
    faults.inject({ fault: 'error500', when: (req) => draw(req) && random() < 0.5, times: Infinity });
    faults.inject({ fault: 'applyThenDrop', when: draw, times: Infinity });
    const ids: number[] = [];
    try {
      for (let i = 0; i < 12; i += 1) {
        const result = await sendToDenmark();
        expect({ send: i, status: result.status }).toEqual({ send: i, status: 200 });
        ids.push(result.body.id as number);
        const reacted = await call(reactionAdd, {
          method: 'POST',
          path: `/messages/${result.body.id}/reactions`,
          pathParameters: { message_id: String(result.body.id) },
          as: 'iago@zulip.com',
          params: { emoji_name: 'octopus' },
        });
        expect({ reaction: i, status: reacted.status, body: reacted.body }).toEqual({
          reaction: i,
          status: 200,
          body: { result: 'success', msg: '' },
        });
      }
      expect(new Set(faults.dealt().map((e) => e.fault))).toEqual(new Set(['throttle', 'error500', 'applyThenDrop']));
    } finally {
      await faults.stop();
    }
    advanceClock(GAP_DEADLINE_MS);
    // (The sender also gets its automatic follow of the new topic: user_topic events.)
    const received = await drainQueues(queues);
    const expected = ids.flatMap((id) => [`message ${id}`, `reaction ${id}`]);
    for (const user of [10, 11, 12]) {
      expect({
        user,
        events: received[user]!.filter((e) => e.type === 'message' || e.type === 'reaction').map(
          (e) => `${e.type} ${e.message?.id ?? e.message_id}`,
        ),
      }).toEqual({
        user,
        events: expected,
      });
    }
    expect(received[8]).toEqual([]);
  }, 180_000);
});
