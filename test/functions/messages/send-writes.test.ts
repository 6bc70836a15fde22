// The DynamoDB writes of a channel message with the organization's stream in 200 shards (as
// deployed, EVENTS_REALM_SHARDS): they follow what is stored for the message's recipients, not the
// shard count (docs/data-model.md, "Writes per message").
import { handler } from '../../../functions/messages/send';
import { newSubscription } from '../../../lib/models/channel';
import * as channelsStore from '../../../lib/store/channels';
import { dbMetrics } from '../../../lib/store/client';
import { batchPut } from '../../../lib/store/common';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const REALM = 2;
const SHARDS = 200;
/** Iago (11) and nine more: Hamlet (10) and Othello (12) among them, Cordelia (8) and Polonius (13) not. */
const TEN_SUBSCRIBERS = [11, 7, 9, 10, 12, 14, 15, 16, 17, 18];

/** A public channel copied from Denmark whose subscribers are Iago (11) and `others` more ids. */
const channelWith = async (channelId: number, others: number[]): Promise<void> => {
  const denmark = (await channelsStore.getChannel(REALM, 1))!;
  const subscribers = [11, ...others];
  await batchPut('main', [
    channelsStore.buildChannelItem({ ...denmark, id: channelId, name: `writes ${channelId}`, subscriberCount: subscribers.length }),
    ...subscribers.map((userId) => channelsStore.buildSubscriptionItem(newSubscription({ userId, channelId, realmId: REALM }, '#76ce90'))),
  ]);
};

const writesOfSend = async (channelId: number) => {
  const send = () =>
    call(handler, {
      method: 'POST',
      path: '/messages',
      as: 'iago@zulip.com',
      params: { type: 'stream', to: channelId, topic: 'costs', content: 'counted' },
    });
  // The topic's first message creates its summary and the sender's follow: count a later one.
  expectSuccess(await send());
  dbMetrics.reset();
  expectSuccess(await send());
  return dbMetrics.snapshot();
};

describe('POST /messages: DynamoDB writes per channel message', () => {
  const saved = process.env.EVENTS_REALM_SHARDS;
  beforeAll(async () => {
    await channelWith(900010, TEN_SUBSCRIBERS.slice(1));
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.EVENTS_REALM_SHARDS;
    else process.env.EVENTS_REALM_SHARDS = saved;
  });

  it('writes 28 requests for a public channel of 10 subscribers with 200 shards, and as many with 400', async () => {
    process.env.EVENTS_REALM_SHARDS = String(SHARDS);
    const cost = await writesOfSend(900010);
    // id, topic summary, message item, recipients record, rows (one batch); then per recipient an
    // append to its stream (allocate, write), and one append to the public-copy shard (nobody here
    // has a queue, so no bell rings); then the removal of the message's pending delivery.
    expect(cost.writeRequests).toBe(28);
    expect(cost.byCommand).toEqual({
      QueryCommand: 5,
      GetItemCommand: 5,
      UpdateItemCommand: 14,
      PutItemCommand: 12,
      BatchWriteItemCommand: 2,
    });
    process.env.EVENTS_REALM_SHARDS = String(2 * SHARDS);
    expect((await writesOfSend(900010)).writeRequests).toBe(28);
  });

  it("gives each subscriber's queue its own version once, all_public_streams queues of others theirs, and nobody else's", async () => {
    process.env.EVENTS_REALM_SHARDS = String(SHARDS);
    const iago = await openQueue('iago@zulip.com', { params: { all_public_streams: true } });
    const othello = await openQueue('othello@zulip.com');
    const cordelia = await openQueue('cordelia@zulip.com', { params: { all_public_streams: true } });
    const polonius = await openQueue('polonius@zulip.com');
    const body = expectSuccess(
      await call(handler, {
        method: 'POST',
        path: '/messages',
        as: 'hamlet@zulip.com',
        params: { type: 'stream', to: 900010, topic: 'costs', content: 'for @**Iago**' },
      }),
    );
    const seen = async (queue: typeof iago) =>
      (await queue.drain()).filter((e) => e.type === 'message').map((e) => [e.message.id, e.flags]);
    expect(await seen(iago)).toEqual([[body.id, ['mentioned']]]);
    expect(await seen(othello)).toEqual([[body.id, []]]);
    expect(await seen(cordelia)).toEqual([[body.id, []]]);
    expect(await seen(polonius)).toEqual([]);
  });
});
