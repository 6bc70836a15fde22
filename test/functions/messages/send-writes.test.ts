// The DynamoDB writes of a channel message with the organization's stream in shards as deployed
// (EVENTS_REALM_SHARDS) and in 200: they follow the shards holding the recipients' queues, never
// more than one append per recipient (docs/data-model.md, "Writes per message").
import { handler } from '../../../functions/messages/send';
import { newSubscription } from '../../../lib/models/channel';
import * as channelsStore from '../../../lib/store/channels';
import { dbMetrics } from '../../../lib/store/client';
import { batchPut } from '../../../lib/store/common';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import { deployedSettings } from '../../../scripts/bench-capacity';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const REALM = 2;
const { shards: DEPLOYED_SHARDS } = deployedSettings();
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

  it(`writes 15 requests for a public channel of 10 subscribers with the deployed ${DEPLOYED_SHARDS} shards, 27 with 200`, async () => {
    process.env.EVENTS_REALM_SHARDS = String(DEPLOYED_SHARDS);
    const shardStreams = Array.from({ length: 100 }, (_, shard) => eventKeys.realmStream(REALM, shard));
    let before = await streams.getHeads(shardStreams, { consistent: true });
    const cost = await writesOfSend(900010);
    // id, topic summary, message item, recipients record and rows (one batch); then one shared
    // append (allocate, write) to each shard holding a subscriber's queue (ids modulo 5: all five),
    // the public-copy shard among them; then the removal of the message's pending delivery.
    expect(cost.writeRequests).toBe(15);
    expect(cost.byCommand).toMatchObject({ UpdateItemCommand: 8, PutItemCommand: 6, BatchWriteItemCommand: 1 });
    let after = await streams.getHeads(shardStreams, { consistent: true });
    const appended = () => shardStreams.filter((s) => after.get(s)!.seq > before.get(s)!.seq).map((s) => shardStreams.indexOf(s));
    expect(appended()).toEqual([0, 1, 2, 3, 4]);
    // With 200 shards, each subscriber has its own: as many appends as one per subscriber and one
    // for everyone else, so one shared append to each of those 11 shards.
    process.env.EVENTS_REALM_SHARDS = '200';
    before = await streams.getHeads(shardStreams, { consistent: true });
    expect((await writesOfSend(900010)).writeRequests).toBe(27);
    after = await streams.getHeads(shardStreams, { consistent: true });
    expect(appended()).toEqual([0, ...TEN_SUBSCRIBERS].sort((a, b) => a - b));
  });

  it("gives each subscriber's queue its own version once, all_public_streams queues of others theirs, and nobody else's", async () => {
    process.env.EVENTS_REALM_SHARDS = String(DEPLOYED_SHARDS);
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
