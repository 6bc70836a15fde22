// POST /messages/{message_id}/reactions when DynamoDB loses answers: whichever of the request's
// writes is applied but answered with a 500 (the SDK then retries it), the reaction is added once,
// the request answers success, and every queue that should hear of it gets exactly one event.
// Faults come from the proxy in front of DynamoDB Local (test/helpers/dynamo-faults.ts).
import { handler as add } from '../../../functions/reactions/add';
import { advanceClock } from '../../../lib/clock';
import { GAP_DEADLINE_MS } from '../../../lib/events/queues';
import { apiReactions } from '../../../lib/models/reaction';
import * as messagesStore from '../../../lib/store/messages';
import { call, expectSuccess } from '../../helpers/api';
import { putChannelMessage } from '../../helpers/channels';
import { startDynamoFaults, type DynamoFaults, type FaultRequest } from '../../helpers/dynamo-faults';
import { drainQueues, openQueuesOf } from '../../helpers/events';

const DENMARK_SUBSCRIBERS = [7, 9, 10, 11, 12, 14, 15];
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const isWrite = (req: FaultRequest) => WRITES.has(req.op);

let nextId = 3000;
const newMessage = async (): Promise<number> => {
  const id = (nextId += 1);
  await putChannelMessage(
    { id, realmId: 2, senderId: 10, streamId: 1, topic: 'faults', content: 'react to me', dateSent: 1_700_000_000 },
    DENMARK_SUBSCRIBERS,
  );
  return id;
};

const OCTOPUS = { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
const react = (as: string, messageId: number) =>
  call(add, {
    method: 'POST',
    path: `/messages/${messageId}/reactions`,
    pathParameters: { message_id: String(messageId) },
    as,
    params: OCTOPUS,
  });

const TADA = { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' };

/** A new message, with a reaction of Iago's already (so its reactions map exists) if `reacted`. */
const prepare = async (reacted: boolean): Promise<number> => {
  const id = await newMessage();
  if (reacted)
    expectSuccess(
      await call(add, {
        method: 'POST',
        path: `/messages/${id}/reactions`,
        pathParameters: { message_id: String(id) },
        as: 'iago@zulip.com',
        params: TADA,
      }),
    );
  return id;
};

/** The writes Hamlet's reaction makes, in order, as the proxy saw them (no fault). */
const writesOfAReaction = async (reacted: boolean): Promise<string[]> => {
  const id = await prepare(reacted);
  const faults = await startDynamoFaults();
  try {
    expectSuccess(await react('hamlet@zulip.com', id));
    return faults.log.filter(isWrite).map((e) => e.op);
  } finally {
    await faults.stop();
  }
};

describe('POST /messages/{message_id}/reactions under lost answers', () => {
  let faults: DynamoFaults | undefined;
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
  });

  it.each([
    ['the first reaction of a message', false],
    ['a reaction to a message with reactions', true],
  ])(
    'adds %s once and tells each subscriber once, whichever of its writes is applied and its answer lost',
    async (_, reacted) => {
      const writes = await writesOfAReaction(reacted);
      expect(writes.length).toBeGreaterThanOrEqual(3);
      for (let k = 0; k < writes.length; k += 1) {
        const id = await prepare(reacted);
        const queues = await openQueuesOf([10, 11, 12]);
        faults = await startDynamoFaults();
        faults.inject({ fault: 'applyThenDrop', when: isWrite, skip: k });
        const result = await react('hamlet@zulip.com', id);
        expect({ write: k, op: faults.dealt()[0]?.op, status: result.status, body: result.body }).toEqual({
          write: k,
          op: writes[k],
          status: 200,
          body: { result: 'success', msg: '' },
        });
        await faults.stop();
        faults = undefined;
        // A stream number whose allocation was retried is skipped at its deadline.
        advanceClock(GAP_DEADLINE_MS);
        const e = { type: 'reaction', op: 'add', user_id: 10, message_id: id, ...OCTOPUS };
        expect({ write: k, events: await drainQueues(queues) }).toEqual({ write: k, events: { 10: [e], 11: [e], 12: [e] } });
        expect(apiReactions((await messagesStore.getMessage(2, id))?.reactions)).toEqual([
          ...(reacted ? [{ ...TADA, user_id: 11 }] : []),
          { ...OCTOPUS, user_id: 10 },
        ]);
      }
    },
    120_000,
  );

  it('answers a throttled and a failed write with success after the SDK retries them, adding the reaction once', async () => {
    const id = await newMessage();
    const queues = await openQueuesOf([11]);
    faults = await startDynamoFaults();
    faults.inject({ fault: 'throttle', op: 'UpdateItem' });
    faults.inject({ fault: 'error500', op: 'PutItem' });
    expectSuccess(await react('hamlet@zulip.com', id));
    expect(faults.dealt().map((e) => e.fault)).toEqual(['throttle', 'error500']);
    await faults.stop();
    faults = undefined;
    expect(await drainQueues(queues)).toEqual({ 11: [{ type: 'reaction', op: 'add', user_id: 10, message_id: id, ...OCTOPUS }] });
  });
});
