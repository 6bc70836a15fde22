// POST /messages when DynamoDB loses answers: whichever of the send's writes is applied but
// answered with a 500 (the SDK then retries it), the send answers success with the id of the one
// message stored, and every queue gets exactly one message event for it. Faults come from the
// proxy in front of DynamoDB Local (test/helpers/dynamo-faults.ts).
import { handler as send } from '../../../functions/messages/send';
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
